/**
 * Features of one token for the entity tagger (docs/extraction.md): the word, its shape and casing,
 * affixes, code-likeness (dots, underscores, call parentheses, inner capitals), a gazetteer flag,
 * two words of context either side and the two previous tags. Training
 * (scripts/trainEntityTagger.ts) and tagging (entityTagger.ts) share this function, so the
 * shipped weights always mean the same thing.
 */

/** Word shape: letters to X/x, digits to d, runs collapsed (`printList()` → `xXx()`). */
export function wordShape(w: string): string {
  return w.replace(/[A-Z]/g, 'X').replace(/[a-z]/g, 'x').replace(/[0-9]/g, 'd').replace(/(.)\1+/g, '$1').slice(0, 12);
}

/** Per-sentence lowercase words and shapes, computed once and shared by every token's features. */
export interface SentenceView {
  readonly words: readonly string[];
  readonly lower: readonly string[];
  readonly shapes: readonly string[];
}

export function sentenceView(words: readonly string[]): SentenceView {
  return { words, lower: words.map((w) => w.toLowerCase()), shapes: words.map(wordShape) };
}

/** Token-level features that do not depend on previous tags. */
export function staticFeatures(view: SentenceView, i: number, inGazetteer: (lw: string) => boolean): string[] {
  const words = view.words;
  const lower = (j: number): string => view.lower[j] ?? '<none>';
  const w = words[i] as string;
  const lw = view.lower[i] as string;
  const shape = view.shapes[i] as string;
  const f = ['b', `w=${lw}`, `sh=${shape}`, `p1=${lw.slice(0, 1)}`, `p2=${lw.slice(0, 2)}`, `p3=${lw.slice(0, 3)}`,
    `s1=${lw.slice(-1)}`, `s2=${lw.slice(-2)}`, `s3=${lw.slice(-3)}`, `s4=${lw.slice(-4)}`,
    `len=${Math.min(w.length, 10)}`];
  const title = /^[A-Z][a-z]/.test(w);
  if (title) f.push(i === 0 ? 'title-first' : 'title');
  if (/^[A-Z0-9]{2,}$/.test(w)) f.push('allcaps');
  if (/[a-z][A-Z]/.test(w)) f.push('camel');
  if (/\d/.test(w)) f.push('digit');
  if (/^\d+(?:\.\d+)*$/.test(w)) f.push('number');
  if (/\w\.\w/.test(w)) f.push('dotted');
  if (/_/.test(w)) f.push('underscore');
  if (/\(.*\)$/.test(w)) f.push('call');
  if (/\//.test(w)) f.push('slash');
  if (/\w-\w/.test(w)) f.push('hyphen');
  if (/^[@#$.]/.test(w)) f.push(`lead=${w[0]}`);
  if (/[+#]$/.test(w)) f.push('plus-or-hash');
  if (inGazetteer(lw)) f.push('gaz');
  f.push(`w-1=${lower(i - 1)}`, `w+1=${lower(i + 1)}`, `w-2=${lower(i - 2)}`, `w+2=${lower(i + 2)}`,
    `sh-1=${view.shapes[i - 1] ?? '<none>'}`, `sh+1=${view.shapes[i + 1] ?? '<none>'}`,
    `w-1w=${lower(i - 1)}|${lw}`, `ww+1=${lw}|${lower(i + 1)}`);
  if (i === 0) f.push('first');
  return f;
}

/** Features that depend on the tags already chosen for the previous tokens. */
export function tagFeatures(lw: string, prevTag: string, prev2Tag: string): string[] {
  return [`t-1=${prevTag}`, `t-2t-1=${prev2Tag}|${prevTag}`, `t-1w=${prevTag}|${lw}`];
}
