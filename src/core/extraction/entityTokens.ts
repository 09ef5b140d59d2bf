/**
 * Tokenisation for the entity tagger (docs/extraction.md). Close to the StackOverflow NER data's
 * tokens the tagger was trained on: whitespace-separated words, with sentence punctuation, quotes
 * and brackets split off the ends, while code-shaped words stay whole (`printList()`,
 * `ng-map.min.js`, `/etc/profile`, `C++`, `.NET`, `System.Exception`).
 */

/** One token with its character span in the input text. */
export interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const LEADING = /^["'`“‘([{<*]/;
const TRAILING = /["'`”’)\]}>*,;:!?]$/;

/** Splits one whitespace-free chunk into tokens (punctuation peeled off both ends). */
function splitChunk(chunk: string, offset: number, out: Token[]): void {
  let s = 0;
  let e = chunk.length;
  const head: Token[] = [];
  const tail: Token[] = [];
  // A detached contraction (`'s`, `'m`, `n't`) is one token, as in the training data.
  if (/^(?:'(?:s|m|re|ve|ll|d)|n't)$/i.test(chunk)) { out.push({ text: chunk, start: offset, end: offset + chunk.length }); return; }
  while (s < e && LEADING.test(chunk.slice(s, s + 1))) { head.push({ text: chunk[s] as string, start: offset + s, end: offset + s + 1 }); s++; }
  for (;;) {
    if (e <= s) break;
    const word = chunk.slice(s, e);
    // Keep a call's own parentheses: `send()`, `foo(x)`.
    if (word.endsWith(')') && /^[\w$.]+\([^()]*\)$/.test(word)) break;
    if (TRAILING.test(word)) { tail.unshift({ text: chunk[e - 1] as string, start: offset + e - 1, end: offset + e }); e--; continue; }
    // A final period ends the sentence unless the word is an abbreviation-like dotted name (`e.g.`) or an ellipsis.
    if (word.endsWith('.') && word.length > 1 && !/^(?:[A-Za-z]\.){2,}$/.test(word) && !/\.\.$/.test(word)) {
      tail.unshift({ text: '.', start: offset + e - 1, end: offset + e }); e--; continue;
    }
    break;
  }
  out.push(...head);
  if (e > s) out.push({ text: chunk.slice(s, e), start: offset + s, end: offset + e });
  out.push(...tail);
}

/** Tokens of a sentence with their character spans. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/\S+/g)) splitChunk(m[0], m.index ?? 0, out);
  return out;
}
