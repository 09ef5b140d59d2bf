/**
 * Shapes of the hand-authored project specs the development-set generator expands. Every target
 * memory is authored once (its core sentence plus the questions it answers), so gold ids are
 * correct by construction; the generator only varies framing, timing and the surrounding noise.
 */
export type DevMemoryType =
  | 'fact' | 'decision' | 'preference' | 'constraint' | 'bug' | 'command'
  | 'event' | 'dependency' | 'observation' | 'summary';

export type DevCategory =
  | 'decision' | 'preference' | 'file-fact' | 'superseded' | 'historical' | 'paraphrase'
  | 'multi-part' | 'temporal' | 'identifier' | 'cjk' | 'distractor' | 'fact';

/** One target fact: the memory text and the questions it (alone) answers. */
export interface Item {
  /** Unique within the project; multi-part pairs refer to it. */
  key: string;
  /** Core sentence(s) of the memory. */
  text: string;
  /** A direct question whose answer is this memory. */
  q: string;
  /** Optional question with little word overlap with `text` (category paraphrase). */
  para?: string;
  /** Indirect clause for multi-part questions, e.g. "which package manager the monorepo uses". */
  ask?: string;
  /** Memory type when the list does not imply it (facts list: command, constraint, dependency...). */
  type?: DevMemoryType;
  /** Category override for `q` (e.g. identifier for an error-code question in the facts list). */
  cat?: DevCategory;
}

export interface DecisionItem extends Item {
  /** Short topic, reused by distractor memories ("package manager"). */
  topic: string;
  /** The option that was not chosen, reused by distractor memories. */
  alt: string;
}

/** A slot whose value changed over time; versions are in chronological order. */
export interface Chain {
  key: string;
  versions: string[];
  /** Question about the current value (gold: last version). */
  q: string;
  /** Question about the previous value (gold: the version before last); only when the last version does not restate it. */
  hq?: string;
  para?: string;
  ask?: string;
}

/** Events on one topic, chronological; the question asks for the latest. */
export interface EventSeries {
  key: string;
  events: string[];
  q: string;
}

/** Near-identical sibling facts; each listed question has exactly one sibling as gold. */
export interface Cluster {
  items: Item[];
}

/** Vocabulary for the surrounding noise (never restating a target fact). */
export interface NoiseVocab {
  modules: string[];
  /** [path, what it does] for files that are NOT asked about. */
  files: Array<[string, string]>;
  libs: string[];
  envVars: string[];
  errors: string[];
  testCmd: string;
  ticket: string;
  activities: string[];
}

export interface ProjectSpec {
  key: string;
  name: string;
  kind: string;
  people: string[];
  agents: string[];
  decisions: DecisionItem[];
  preferences: Item[];
  files: Item[];
  bugs: Item[];
  facts: Item[];
  chains: Chain[];
  events: EventSeries[];
  clusters: Cluster[];
  /** Pairs of item keys asked together (both need an `ask` clause). */
  multi: Array<[string, string]>;
  /** Chinese target facts (question category cjk). */
  cjk: Item[];
  /** Authored near-miss memories: share words with a target but do not answer its question. */
  nearMisses?: string[];
  vocab: NoiseVocab;
  /** Share of this project's noise written in Chinese (0 for English-only teams). */
  zhNoiseShare: number;
  /** How many noise memories to generate for this project. */
  noiseCount: number;
}
