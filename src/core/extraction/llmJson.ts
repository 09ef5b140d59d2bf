/**
 * Robust JSON recovery for LLM answers: strips <think> blocks
 * and markdown fences, tolerates trailing commas and surrounding prose, and scans balanced
 * objects from last to first so a final answer wins over earlier examples. Never throws.
 */

export function stripThinking(text: string): string {
  let out = text.replace(/<think>[\s\S]*?<\/think>/gi, '');
  // An unclosed <think> swallows everything after it: keep only what follows a later close tag, if any.
  const open = out.search(/<think>/i);
  if (open >= 0) out = out.slice(0, open);
  return out.replace(/<\/think>/gi, '');
}

export function stripFences(text: string): string {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/g;
  const blocks = [...text.matchAll(fenced)].map((m) => m[1] ?? '');
  return blocks.length ? blocks.join('\n') : text;
}

const removeTrailingCommas = (s: string): string => s.replace(/,\s*([}\]])/g, '$1');

function tryParse(s: string): unknown {
  try { return JSON.parse(s); } catch { /* fall through */ }
  try { return JSON.parse(removeTrailingCommas(s)); } catch { return undefined; }
}

/** Top-level balanced `{…}` spans, string-aware, in order; an unbalanced opener is skipped. */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let end = -1;
    let inString = false;
    let escaped = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) { end = i; break; }
      }
    }
    if (end >= 0) { spans.push(text.slice(start, end + 1)); start = end; }
  }
  return spans;
}

/**
 * Finds the JSON object in an LLM answer. `accept` picks among candidates (e.g. "has a
 * `contradicts` key"); the last acceptable balanced object wins. Returns undefined on garbage.
 */
export function parseLlmJson(text: string, accept: (v: Record<string, unknown>) => boolean = () => true): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || !text.trim()) return undefined;
  const cleaned = stripThinking(text);
  const ok = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && accept(v as Record<string, unknown>);
  for (const candidate of [cleaned.trim(), stripFences(cleaned).trim()]) {
    const v = tryParse(candidate);
    if (ok(v)) return v;
  }
  const spans = balancedObjects(stripFences(cleaned));
  for (let i = spans.length - 1; i >= 0; i--) {
    const v = tryParse(spans[i] as string);
    if (ok(v)) return v;
  }
  return undefined;
}
