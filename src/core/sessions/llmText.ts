/** Cleaning of LLM output shared by the continuity scorer and the hints job handler. */

/** Removes `<think>…</think>` blocks (and an unterminated trailing `<think>`). */
export function stripThinkBlocks(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '').replace(/<think>[\s\S]*$/i, '');
}

/** Removes markdown code fences, keeping their content. */
export function stripFences(text: string): string {
  return text.replace(/```[a-zA-Z0-9_-]*[ \t]*\r?\n?/g, '');
}

/**
 * Finds the first balanced JSON object in `text` and parses it; tolerates trailing commas.
 * Returns undefined when there is none or it does not parse.
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const cleaned = stripFences(stripThinkBlocks(text));
  for (let start = cleaned.indexOf('{'); start >= 0; start = cleaned.indexOf('{', start + 1)) {
    const end = balancedEnd(cleaned, start);
    if (end < 0) continue;
    const candidate = cleaned.slice(start, end + 1).replace(/,\s*([}\]])/g, '$1');
    try {
      const value: unknown = JSON.parse(candidate);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // try the next opening brace
    }
  }
  return undefined;
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
