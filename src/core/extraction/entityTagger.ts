import { ENTITY_TYPES } from '../config/extractionConfig';
import type { EntityType } from '../config/extractionConfig';
import { sentenceView, staticFeatures, tagFeatures } from './entityTaggerFeatures';
import { tokenize } from './entityTokens';
import type { Token } from './entityTokens';

/**
 * A greedy averaged-perceptron sequence tagger for entity names (docs/extraction.md). Its weights
 * are learned by scripts/trainEntityTagger.ts from the StackOverflow NER training split and shipped
 * as `entityTaggerWeights.json` (the learned numbers only; no sentence of the data). Tags are BIO
 * over project entity types (`B-tool`, `I-tool`, …, `O`).
 */

/** The model: class labels, and per feature a sparse list of [class index, weight]. */
export interface TaggerWeights {
  readonly labels: readonly string[];
  readonly weights: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  /** Added to the `O` score at decode time; raising it trades recall for precision (chosen on dev). */
  readonly outsideBias: number;
}

/**
 * The shipped file's shape. Weights are one string, a line per feature (`feature\tclass:weight,…`;
 * features never hold whitespace because tokens do not), so the type checker and the bundler see a
 * small object instead of 50,000 properties.
 */
export interface SerializedTaggerWeights {
  readonly version: number;
  readonly labels: readonly string[];
  readonly outsideBias: number;
  readonly weights: string;
}

export function serializeTaggerWeights(w: TaggerWeights): SerializedTaggerWeights {
  const lines: string[] = [];
  for (const [f, ws] of w.weights) lines.push(`${f}\t${ws.map(([c, v]) => `${c}:${v}`).join(',')}`);
  return { version: 1, labels: w.labels, outsideBias: w.outsideBias, weights: lines.join('\n') };
}

export function parseTaggerWeights(s: SerializedTaggerWeights): TaggerWeights {
  const weights = new Map<string, (readonly [number, number])[]>();
  for (const line of s.weights.split('\n')) {
    const tab = line.lastIndexOf('\t');
    if (tab <= 0) continue;
    weights.set(line.slice(0, tab), line.slice(tab + 1).split(',').map((cw) => {
      const [c, v] = cw.split(':');
      return [Number(c), Number(v)] as const;
    }));
  }
  return { labels: s.labels, outsideBias: s.outsideBias, weights };
}

/** One tagged entity span (character offsets into the sentence). */
export interface TaggedSpan {
  readonly name: string;
  readonly type: EntityType;
  readonly start: number;
  readonly end: number;
}

export interface EntityTagger {
  /** Entity spans of one sentence. */
  tag(sentence: string): TaggedSpan[];
  /** Tags of already tokenised words (the training script and the bench use this). */
  tagWords(words: readonly string[]): string[];
}

const isType = (t: string): t is EntityType => (ENTITY_TYPES as readonly string[]).includes(t);

/** Builds a tagger from serialised weights; `inGazetteer` says whether a lowercase word is a known name. */
export function createEntityTagger(model: TaggerWeights, inGazetteer: (lw: string) => boolean = () => false): EntityTagger {
  const labels = model.labels;
  const outside = labels.indexOf('O');
  const scores = new Float64Array(labels.length);
  const add = (feats: readonly string[]): void => {
    for (const f of feats) {
      const ws = model.weights.get(f);
      if (!ws) continue;
      for (const [c, w] of ws) scores[c] = (scores[c] as number) + w;
    }
  };
  const tagWords = (words: readonly string[]): string[] => {
    const tags: string[] = [];
    const view = sentenceView(words);
    for (let i = 0; i < words.length; i++) {
      scores.fill(0);
      add(staticFeatures(view, i, inGazetteer));
      add(tagFeatures(view.lower[i] as string, tags[i - 1] ?? '<s>', tags[i - 2] ?? '<s>'));
      if (outside >= 0) scores[outside] = (scores[outside] as number) + model.outsideBias;
      let best = 0;
      for (let c = 1; c < labels.length; c++) if ((scores[c] as number) > (scores[best] as number)) best = c;
      tags.push(labels[best] as string);
    }
    return tags;
  };
  return {
    tagWords,
    tag: (sentence) => {
      const tokens = tokenize(sentence);
      return spansOf(sentence, tokens, tagWords(tokens.map((t) => t.text)));
    },
  };
}

/** BIO tags → spans; an `I-` tag without a matching open span starts one (greedy decoding can do that). */
export function spansOf(sentence: string, tokens: readonly Token[], tags: readonly string[]): TaggedSpan[] {
  const out: TaggedSpan[] = [];
  let open: { start: number; end: number; type: string } | undefined;
  const close = (): void => {
    if (open && isType(open.type)) out.push({ name: sentence.slice(open.start, open.end), type: open.type, start: open.start, end: open.end });
    open = undefined;
  };
  tags.forEach((tag, i) => {
    const tok = tokens[i] as Token;
    const [bio, type = ''] = tag.split('-', 2) as [string, string?];
    if (bio === 'I' && open && open.type === type) { open.end = tok.end; return; }
    close();
    if (bio === 'B' || bio === 'I') open = { start: tok.start, end: tok.end, type };
  });
  close();
  return out;
}
