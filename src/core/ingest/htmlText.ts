/**
 * HTML to plain text for document ingest (signet-spec §2.21): drop <script> and <style> blocks
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

/** Removes every `<tag …>…</tag>` block of the given names; an unclosed block runs to the end. */
export function removeBlocks(html: string, tags: readonly string[]): string {
  const lower = html.toLowerCase();
  let out = '';
  let i = 0;
  while (i < html.length) {
    let next = -1;
    let tag = '';
    for (const t of tags) {
      const at = lower.indexOf(`<${t}`, i);
      if (at >= 0 && (next < 0 || at < next)) {
        const after = lower[at + t.length + 1];
        if (after === undefined || after === '>' || /\s|\//.test(after)) { next = at; tag = t; }
      }
    }
    if (next < 0) { out += html.slice(i); break; }
    out += html.slice(i, next);
    const close = lower.indexOf(`</${tag}`, next);
    if (close < 0) break;
    const end = lower.indexOf('>', close);
    i = end < 0 ? html.length : end + 1;
  }
  return out;
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
