/**
 * Types shared by the recall stages. A candidate carries its separately scored channels, its
 * current score and an explain record every stage appends to ("why was this recalled").
 */

/** Channel scores, each in [0, 1] (structured evidence shaping). */
export interface ChannelScores {
  /** Lexical arm: probed bm25 (termProbe.ts). */
  lexical: number;
  /** Vector arm: cosine with the query, floored at 0. */
  semantic: number;
  /** Prospective hints: best normalised hint bm25 of the memory. */
  hint: number;
  /** Focal-entity traversal channel. */
  traversal: number;
}

/** One score change made by a stage: a multiplicative factor or an additive delta. */
export interface ScoreAdjustment {
  readonly stage: string;
  readonly factor?: number;
  readonly delta?: number;
  readonly note?: string;
  /** The score just before this change and the change's place among the candidate's changes (explainText.ts nets one stage's changes). */
  readonly before?: number;
  readonly seq?: number;
  /** A memory the change refers to (currentness: the superseded memory this one replaces); shown by name, never by id. */
  readonly memoryId?: string;
}

export interface Explain {
  channels: ChannelScores;
  /** Score right after fusion and evidence shaping. */
  fused: number;
  /** Which channels found the candidate ("lexical", "vector", "hint", "traversal"; "neighbour": sessionNeighbours.ts). */
  sources: string[];
  /** Terms of the query this memory hit, when probing ran. */
  termsHit?: number;
  termCount?: number;
  boosts: ScoreAdjustment[];
  penalties: ScoreAdjustment[];
  notes: string[];
  /** Final score. */
  score: number;
}

/** Whether a recalled memory still holds (the currentness stage, currentness.ts). */
export interface Currentness {
  /** 'superseded': the memory, or every claim in it, was replaced; 'partly-superseded': some claims were. */
  readonly status: 'superseded' | 'partly-superseded';
  /** The replacing text, when known. */
  readonly replacement?: string;
  /** The memory holding the replacement, when known. */
  readonly replacementId?: string;
}

/** A candidate after hydration; stages read the memory fields and update score + explain. */
export interface Candidate {
  readonly id: string;
  readonly content: string;
  readonly type: string;
  readonly createdAt: string;
  readonly sourceId: string | null;
  readonly importance: number;
  score: number;
  readonly channels: ChannelScores;
  readonly explain: Explain;
  /** Set by the currentness stage when something in the memory was superseded. */
  currentness?: Currentness;
}

/** What recall returns ({id, sourceId, content, score, type, createdAt, explain?}). */
export interface RecallResult {
  readonly id: string;
  readonly sourceId: string | null;
  readonly content: string;
  /**
   * The ranking score: compare it only with other results of the same recall. Ranking steps
   * multiply it, so it can exceed 1 (a decision with detail that replaces an older memory).
   */
  readonly score: number;
  /** The score over the best score of the same recall, on 0–1 (1 = the best result): what "Why" shows. */
  readonly relevance: number;
  readonly type: string;
  readonly createdAt: string;
  readonly explain?: Explain;
  /** Present when the memory (or part of it) was superseded; answers must prefer the replacement. */
  readonly currentness?: Currentness;
}

export function emptyChannels(): ChannelScores {
  return { lexical: 0, semantic: 0, hint: 0, traversal: 0 };
}

/** Records a multiplicative change (boost if factor > 1, penalty if < 1) and applies it. */
export function applyFactor(c: Candidate, stage: string, factor: number, note?: string): void {
  if (factor === 1) return;
  const before = c.score, seq = c.explain.boosts.length + c.explain.penalties.length;
  c.score *= factor;
  const adj: ScoreAdjustment = note === undefined ? { stage, factor, before, seq } : { stage, factor, note, before, seq };
  (factor > 1 ? c.explain.boosts : c.explain.penalties).push(adj);
}

/** Records an additive change and applies it. */
export function applyDelta(c: Candidate, stage: string, delta: number, note?: string, memoryId?: string): void {
  if (delta === 0) return;
  const before = c.score, seq = c.explain.boosts.length + c.explain.penalties.length;
  c.score += delta;
  const base: ScoreAdjustment = note === undefined ? { stage, delta, before, seq } : { stage, delta, note, before, seq };
  const adj: ScoreAdjustment = memoryId === undefined ? base : { ...base, memoryId };
  (delta > 0 ? c.explain.boosts : c.explain.penalties).push(adj);
}

/** Stable sort by score, descending (ties keep their order). */
export function sortByScore(cands: Candidate[]): Candidate[] {
  return cands.map((c, i) => ({ c, i })).sort((a, b) => b.c.score - a.c.score || a.i - b.i).map((x) => x.c);
}
