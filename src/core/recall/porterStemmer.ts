/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), the algorithm of
 * FTS5's `porter` tokenizer that memories_fts uses since migration 23 (docs/recall-design.md). The
 * lexical arm counts query-term hits in candidate text itself (term probing, gravity, facets), so
 * it must reduce words the way the index does: "paintings" and "painted" both hit the term
 * "painting". Step 2 includes the "bli"→"ble" and "logi"→"log" revisions, as SQLite does.
 * Only plain lowercase ASCII words of 3+ letters are stemmed; anything else (digits, underscores,
 * non-Latin letters) is returned as given, so identifiers such as "v2", "snake_case" or "http2"
 * stay exact.
 */

const PLAIN = /^[a-z]+$/;

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** Porter's m: the number of VC sequences in w[0..end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** *o: the stem ends consonant–vowel–consonant, the last not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3) return false;
  const c = w[end - 1] as string;
  return isConsonant(w, end - 3) && !isConsonant(w, end - 2) && isConsonant(w, end - 1) && c !== 'w' && c !== 'x' && c !== 'y';
}

/** Replaces the first matching suffix whose stem has measure > minM; no match → unchanged. */
function replaceSuffix(w: string, rules: ReadonlyArray<readonly [string, string]>, minM: number): string {
  for (const [suffix, repl] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.length - suffix.length;
      return measure(w, stem) > minM ? w.slice(0, stem) + repl : w;
    }
  }
  return w;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

// Step 2 and 3 rules are checked longest-match-first within a shared ending.
const byLength = (rules: ReadonlyArray<readonly [string, string]>): ReadonlyArray<readonly [string, string]> => [...rules].sort((a, b) => b[0].length - a[0].length);
const STEP2_SORTED = byLength(STEP2);
const STEP3_SORTED = byLength(STEP3);
const STEP4_SORTED = [...STEP4].sort((a, b) => b.length - a.length);

/**
 * Stems already computed: term probing, gravity and facets stem every token of every candidate
 * (thousands of calls a query, over a vocabulary that repeats), so each word is stemmed once.
 * Cleared when full, which bounds its memory.
 */
const CACHE = new Map<string, string>();
const CACHE_MAX = 50_000;

export function porterStem(word: string): string {
  if (word.length < 3 || !PLAIN.test(word)) return word;
  const hit = CACHE.get(word);
  if (hit !== undefined) return hit;
  const stem = stemUncached(word);
  if (CACHE.size >= CACHE_MAX) CACHE.clear();
  CACHE.set(word, stem);
  return stem;
}

function stemUncached(word: string): string {
  let w = word;
  // Step 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
  // Step 1b
  let extra = false;
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2); extra = true;
  } else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3); extra = true;
  }
  if (extra) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w, w.length) === 1 && endsCvc(w, w.length)) w += 'e';
  }
  // Step 1c
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + 'i';
  // Steps 2 and 3
  w = replaceSuffix(w, STEP2_SORTED, 0);
  w = replaceSuffix(w, STEP3_SORTED, 0);
  // Step 4
  for (const suffix of STEP4_SORTED) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.length - suffix.length;
    if (measure(w, stem) > 1 && (suffix !== 'ion' || /[st]$/.test(w.slice(0, stem)))) w = w.slice(0, stem);
    break;
  }
  // Step 5a
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  // Step 5b
  if (measure(w, w.length) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}
