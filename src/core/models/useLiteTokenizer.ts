/**
 * The USE-lite sentencepiece tokenizer, reproducing the TF.js loader (@energetic-ai/embeddings,
 * itself from tfjs-models/universal-sentence-encoder) token for token:
 * - NFKC, no lowercasing; a non-empty string gets a leading U+2581 and every ASCII space becomes
 *   U+2581 (tabs and newlines stay, and become unknown);
 * - pieces 6..7999 of the vocabulary in a trie (a later duplicate piece wins); Viterbi over code
 *   points maximising the summed scores, where an end position still at 0 accepts any candidate and
 *   ties go to the later candidate (`score >= best`); candidates are visited by start position;
 * - a position with no matching piece yields id 0 (unknown) with score 0; consecutive unknowns
 *   merge into one id 0.
 * Truncation to the model's 128 positions is the caller's (see `truncateIds`).
 */
import { readFileSync } from 'node:fs';
import { MemoryError } from '../errors';

export const WORD_MARKER = '\u2581';
/** Ids 0..5 are reserved (0 = unknown); they never match text. */
export const RESERVED_IDS = 6;
export const UNKNOWN_ID = 0;

/** [piece, score]; the TF.js vocabulary has null scores for a few ":" pieces, read as 0. */
export type VocabEntry = readonly [string, number | null];

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Vocabulary id when a piece ends here, else -1. */
  id: number;
  score: number;
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, score: 0 });

export function normalizeForUseLite(text: string): string {
  const normalized = text.normalize('NFKC');
  return normalized.length > 0 ? WORD_MARKER + normalized.replace(/ /g, WORD_MARKER) : normalized;
}

export class UseLiteTokenizer {
  private readonly root = newNode();
  private readonly pieceLengths: Int32Array;

  constructor(vocab: readonly VocabEntry[]) {
    if (vocab.length <= RESERVED_IDS) throw new MemoryError('E_MODEL_LOAD', 'The tokenizer vocabulary is empty.');
    this.pieceLengths = new Int32Array(vocab.length);
    vocab.forEach(([piece], id) => { this.pieceLengths[id] = piece.length; });
    for (let id = RESERVED_IDS; id < vocab.length; id++) {
      const [piece, score] = vocab[id] as VocabEntry;
      let node = this.root;
      for (const ch of piece) {
        let next = node.children.get(ch);
        if (!next) { next = newNode(); node.children.set(ch, next); }
        node = next;
      }
      if (node !== this.root) { node.id = id; node.score = score ?? 0; }
    }
  }

  get vocabSize(): number {
    return this.pieceLengths.length;
  }

  /** Token ids for one text (untruncated). The empty string gives []. */
  encode(text: string): number[] {
    const symbols = Array.from(normalizeForUseLite(text));
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let start = 0; start < n; start++) {
      let node = this.root.children.get(symbols[start] as string);
      let matched = false;
      for (let end = start + 1; node && end <= n; end++) {
        if (node.id >= 0) {
          matched = true;
          this.relax(best, words, start, end, node.score, node.id);
        }
        node = end < n ? node.children.get(symbols[end] as string) : undefined;
      }
      if (!matched) this.relax(best, words, start, start + 1, 0, UNKNOWN_ID);
    }
    const reversed: number[] = [];
    for (let pos = n; pos > 0; pos -= this.pieceLengths[words[pos] as number] as number) reversed.push(words[pos] as number);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === UNKNOWN_ID)) merged.push(id);
      previousUnknown = id === UNKNOWN_ID;
    }
    return merged.reverse();
  }

  private relax(best: Float64Array, words: Int32Array, start: number, end: number, score: number, id: number): void {
    const total = score + (best[start] as number);
    if (best[end] === 0 || total >= (best[end] as number)) {
      best[end] = total;
      words[end] = id;
    }
  }
}

/** The first `max` ids (the model keeps only its first 128 positions). */
export function truncateIds(ids: readonly number[], max: number): number[] {
  return ids.length > max ? ids.slice(0, max) : ids.slice();
}

/** Loads the tokenizer from a Hugging Face `tokenizer.json` with a Unigram model (as buildModel writes it). */
export function loadUseLiteTokenizer(tokenizerJsonPath: string): UseLiteTokenizer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(tokenizerJsonPath, 'utf8'));
  } catch (e) {
    throw new MemoryError('E_MODEL_MISSING', `Cannot read the tokenizer at ${tokenizerJsonPath}.`, { path: tokenizerJsonPath }, { cause: e });
  }
  const model = (parsed as { model?: { type?: string; vocab?: unknown } }).model;
  if (model?.type !== 'Unigram' || !Array.isArray(model.vocab)) {
    throw new MemoryError('E_MODEL_LOAD', `${tokenizerJsonPath} is not a Unigram tokenizer.json.`, { path: tokenizerJsonPath });
  }
  return new UseLiteTokenizer(model.vocab as VocabEntry[]);
}
