/**
 * HTML to plain text for document ingest: drop <script> and <style> blocks
 * with a linear scan, strip the remaining tags, decode common entities (&amp; last), collapse
 * whitespace. The title comes from the first <title>.
 */

const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  const decoded = text
    .replace(/&#(\d{1,7});/g, (m, d: string) => safeCodePoint(Number(d), m))
    .replace(/&#x([0-9a-f]{1,6});/gi, (m, h: string) => safeCodePoint(parseInt(h, 16), m))
    .replace(/&(lt|gt|quot|#39|apos|nbsp);/gi, (_m, n: string) => NAMED[n.toLowerCase()] ?? '');
  return decoded.replace(/&amp;/gi, '&');
}

function safeCodePoint(cp: number, fallback: string): string {
  if (cp === 38) return '&amp;'; // decoded last, with the named &amp;
  try { return String.fromCodePoint(cp); } catch { return fallback; }
}

/** The next `<tag` at or after `from` that really opens that tag (not `<tagx`), or -1. */
function findOpen(lower: string, tag: string, from: number): number {
  for (let at = lower.indexOf(`<${tag}`, from); at >= 0; at = lower.indexOf(`<${tag}`, at + 1)) {
    const after = lower[at + tag.length + 1];
    if (after === undefined || after === '>' || after === '/' || /\s/.test(after)) return at;
  }
  return -1;
}

/**
 * Removes every `<tag …>…</tag>` block of the given names in one linear pass (each tag's next
 * opening is cached until passed); an unclosed block runs to the end.
 */
export function removeBlocks(html: string, tags: readonly string[]): string {
  const lower = html.toLowerCase();
  const next = new Map(tags.map((t) => [t, findOpen(lower, t, 0)]));
  let out = '';
  let i = 0;
  for (;;) {
    let at = -1;
    let tag = '';
    for (const t of tags) {
      let p = next.get(t) as number;
      if (p >= 0 && p < i) { p = findOpen(lower, t, i); next.set(t, p); }
      if (p >= 0 && (at < 0 || p < at)) { at = p; tag = t; }
    }
    if (at < 0) return out + html.slice(i);
    out += html.slice(i, at);
    const close = lower.indexOf(`</${tag}`, at);
    if (close < 0) return out;
    const end = lower.indexOf('>', close);
    if (end < 0) return out;
    i = end + 1;
  }
}

export function extractTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!m) return undefined;
  const t = decodeEntities((m[1] ?? '').replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
  return t || undefined;
}

export function htmlToText(html: string): { text: string; title: string | undefined } {
  const title = extractTitle(html);
  const body = removeBlocks(html.replace(/<!--[\s\S]*?-->/g, ' '), ['script', 'style', 'title'])
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ');
  const text = decodeEntities(body).replace(/[ \t\f\v\r]+/g, ' ').replace(/ *\n[\s]*/g, '\n').trim();
  return { text, title };
}
