import type { LearnedOrderConfig, LearnedOrderWeights } from '../recall/learnedOrder';
import { LEARNED_ORDER_WEIGHTS } from '../recall/learnedOrderWeights';
import type { LearnedUseConfig } from '../recall/learnedUse';
import { isQueryAdapter } from '../recall/queryAdapter';
import type { QueryAdapter } from '../recall/queryAdapter';
/**
 * Typed configuration of recall. Every stage has its constants here (each stage and the origin
 * of its constants: docs/recall-design.md), and an
 * `enabled` switch so the quality bench can turn it off. `resolveSearchConfig` clamps user values.
 */

export interface LexicalConfig {
  readonly enabled: boolean;
  /** Term probing (docs/recall-design.md, "Term probing"): rank by number of terms hit, majority-hit rule. Off = plain bm25 over an OR query. */
  readonly probing: boolean;
  /** Terms kept from a query after shell stripping (default 8). */
  readonly maxTerms: number;
  /** Candidates fetched from FTS before the hit-count filter, as a multiple of topK. */
  readonly candidateFactor: number;
  /**
   * Queries of up to this many terms use the majority-hit rule (a two-term query must hit
   * both); longer ones need longQueryMinHits and rank by hits. Defaults 2 / 1 are the dev-set optimum
   * (majority for 3+ terms dropped R@5 from 0.82 to 0.80; a sentence question rarely shares most words).
   */
  readonly majorityUpTo: number;
  readonly longQueryMinHits: number;
  /** Weight of the hit count in the lexical score (1 = rank purely by terms hit, then bm25). */
  readonly hitWeight: number;
  /**
   * A Latin term held by more than this fraction of memories does not generate FTS candidates when
   * a rarer term of the query does (it still counts as a hit). Its bm25 idf is then at most
   * ln(9) ≈ 2.2 against 6–8 for a rare term, while ranking its documents is the arm's main cost
   * (bench/recall.ts, 100k: lexical p95 69 → 19 ms). 1 = off. Default 0.1 (with no floor the dev set,
   * bench/quality.ts, moved full R@5 0.820 → 0.822, MRR 0.707 → 0.708; lexical-only unchanged).
   */
  readonly commonTermFraction: number;
  /**
   * ... and by more than this many memories: below it ranking a term's documents is cheap (about
   * 2 ms for 1,000 at 100k), and in a small store a topical word is not noise. Default 1000, so
   * stores of the dev set's size (2,169 memories) recall exactly as without pruning.
   */
  readonly commonTermMinDocs: number;
  /**
   * Weigh hit terms by their idf in the store (lexicalArm.ts termWeights) instead of counting them.
   * On by default since the learned order (docs/recall-design.md, "Seventh round": R@10 0.794 →
   * 0.798 with it); before, it lowered bare fusion's recall@10 by 0.005 (0.656 → 0.651).
   */
  readonly idfHits: boolean;
  /**
   * Drop question words (questionWords.ts: pronouns, prepositions, "kind", "how many", ...) from
   * the query's terms and facets. Off by default: real recall@10 +0.004 (0.732 → 0.736) but the
   * synthetic set −0.014 (0.878 → 0.864), bench/quality.ts; docs/recall-design.md has the table.
   */
  readonly questionWords: boolean;
}

export interface VectorConfig {
  readonly enabled: boolean;
  /**
   * Fuse cosine divided by the query's best cosine (max-normalised, as bm25 is) instead of raw
   * cosine: raw USE-lite cosines of relevant memories sit around 0.3–0.6 while the best bm25 is
   * always 1, so raw fusion let any lexical hit outweigh the semantic arm.
   */
  readonly normalise: boolean;
  /**
   * Adapt the question's vector with the learned query adapter before the vector arm
   * (recall/queryAdapter.ts), when the store's model is the one it was learned for (the bundled
   * use-lite). On by default: held out by conversation it raised the development conversations'
   * R@10 (docs/recall-design.md, "Ninth round").
   */
  readonly queryAdapter: boolean;
  /** Other adapter weights than the shipped ones (a bench's fold weights); none: the shipped. */
  readonly adapter?: QueryAdapter;
}

/** Recall's hint channel (matching stored hints); hint generation is config/hintsConfig.ts. */
export interface HintChannelConfig {
  readonly enabled: boolean;
  /** A hint-only match never scores above this. */
  readonly hintOnlyCap: number;
}

export interface GraphBoostConfig {
  /**
   * Off by default: it did not earn its place. On the real conversations (bench/quality.ts, LoCoMo
   * dev set) the flat +0.15 cost 0.11 recall@10 (full 0.475 vs 0.587 without); weighed by
   * specificity × centrality it still cost 0.020 (0.616 vs 0.636); on the synthetic set it never
   * helped (0.850 vs 0.858 without). docs/recall-design.md has the table.
   */
  readonly enabled: boolean;
  /** Additive boost for graph-linked candidates (default 0.15). */
  readonly weight: number;
  /** Deadline for the three lookups (default 500 ms). */
  readonly timeoutMs: number;
  /** Entity hits from query tokens (default 20). */
  readonly maxEntities: number;
  /** One-hop neighbours (default 50). */
  readonly maxNeighbours: number;
  /** Linked memories (default 200). */
  readonly maxMemories: number;
  /**
   * Weigh each entity by specificity × centrality (graphBoost.ts): ln(N/mentions)/ln(N) times the
   * share of its name the query holds; false = the flat seed-000 boost for every linked memory.
   */
  readonly specificity: boolean;
  /** A one-hop neighbour's weight relative to its specificity. */
  readonly neighbourWeight: number;
  /** Entities weighing at most this add no memories. */
  readonly minEntityWeight: number;
}

export interface TraversalConfig {
  /**
   * Off by default: on the real conversations traversal cost 0.09 recall@10 (full 0.475 vs 0.565
   * without), still 0.011 with focal entities limited to specific ones (minSpecificity); on the
   * synthetic set it moved recall@10 by 0.002. docs/recall-design.md has the table.
   */
  readonly enabled: boolean;
  /**
   * Pinned entities also seed the traversal (default off): their constraints, aspects' attributes
   * and mentions then feed the traversal channel. Off since pins act through the pin-priority
   * stage (recall/pinPriority.ts), which reorders relevant results and adds no off-topic ones.
   */
  readonly includePinned: boolean;
  /** Traversal budgets. */
  readonly maxAspectsPerEntity: number;
  readonly maxAttributesPerAspect: number;
  readonly maxPaths: number;
  readonly maxBranching: number;
  readonly minDependencyStrength: number;
  readonly minConfidence: number;
  readonly timeoutMs: number;
  /** An unanchored traversal-only candidate is capped at this score. */
  readonly unanchoredCap: number;
  /** A semantic score at or above this anchors a candidate (default 0.35). */
  readonly anchorSemantic: number;
  /** Traversal channel score: cosWeight·cos + (1−cosWeight)·importance (default 0.7). */
  readonly cosWeight: number;
  /**
   * Focal entities resolved from the query need at least this specificity (graphBoost.ts
   * entitySpecificity): a speaker or hub linked to much of the store is no focus. 0 = all.
   */
  readonly minSpecificity: number;
}

/** Date window (dateWindow.ts): candidates created around a date the query names. */
export interface DateWindowConfig {
  readonly enabled: boolean;
  /** Score × (1 + boost) inside the window. */
  readonly boost: number;
  /** Days the window reaches before the named day/month/year and after it. */
  readonly beforeDays: number;
  readonly afterDays: number;
}

export interface FacetConfig {
  readonly enabled: boolean;
  /** Facet coverage: +0.08 per newly covered facet, −0.02 per repeated one. */
  readonly newFacetBonus: number;
  readonly repeatPenalty: number;
  /** Scale each facet's bonus and penalty by its idf weight (lexicalArm.ts termWeights). */
  readonly idfWeighted: boolean;
}

export interface TemporalPriorConfig {
  /** Setting `search.temporalPriorEnabled` (default on). */
  readonly enabled: boolean;
  /** Bounded created_at boost: score × (1 + maxBoost · 0.5^(ageDays / halfLifeDays)). */
  readonly maxBoost: number;
  readonly halfLifeDays: number;
  /** Age counts from the newest of this many top candidates (the question's own topic). */
  readonly referenceWindow: number;
}

export interface RecencyConfig {
  /**
   * Off by default: on the real conversations (bench/quality.ts, LoCoMo dev set) it cost 0.005
   * recall@10 (0.660 without vs 0.655 with), the edge of the tolerance, and left the full pipeline
   * below bare fusion; on the synthetic set it moved R@10 by 0.001 (0.873 without, 0.874 with).
   */
  readonly enabled: boolean;
  /** 30-day half-life (docs/recall-design.md, "Recency and width"). */
  readonly halfLifeDays: number;
  /** At most 0.15 of one fusion rank step. */
  readonly maxBonus: number;
  /**
   * One fusion rank step in score units: the smallest score difference recall treats as a real
   * preference. The bonus is maxBonus · rankStep · 0.5^(age/halfLife) < rankStep, so recency only
   * reorders near-ties (below one reciprocal-rank step).
   */
  readonly rankStep: number;
}

export interface CurrentnessConfig {
  readonly enabled: boolean;
  /** Currentness: only superseded attributes → ×0.65; some superseded → ×0.85; only active → ×1.03. */
  readonly onlySuperseded: number;
  readonly someSuperseded: number;
  readonly onlyActive: number;
}

export interface DampeningConfig {
  /** Gravity: semantic-path score > threshold with zero query-term overlap → × penalty. */
  readonly gravityEnabled: boolean;
  readonly gravityThreshold: number;
  readonly gravityPenalty: number;
  /**
   * Hub: every linked entity at or above the P90 mention count → × 0.7. Off by default: on the real
   * conversations it cost recall@10 0.021 in the old pipeline (0.475 vs 0.496 without) and 0.004
   * over bare fusion (R@5 0.568 → 0.552), where every memory linked only to a speaker counts as
   * hub-only; on the synthetic set it moved nothing (0.851 vs 0.850).
   */
  readonly hubEnabled: boolean;
  readonly hubPercentile: number;
  readonly hubPenalty: number;
  /**
   * A hub also needs at least this many mentions: in a small store the P90 is 1 mention, and the
   * stage then damped every linked memory.
   */
  readonly hubMinMentions: number;
  /** Resolution: constraint/decision × 1.2; ISO date or month name × (1 + (boost−1)/2); content < minChars nothing. */
  readonly resolutionEnabled: boolean;
  readonly resolutionBoost: number;
  readonly resolutionMinChars: number;
}

export interface SessionNeighbourConfig {
  /**
   * Session neighbourhood expansion (sessionNeighbours.ts): the turns next to a head candidate in
   * the same capture session join or are lifted at `weight` × its score. On by default: on the
   * real conversations (bench/quality.ts, LoCoMo dev set) it raised the full pipeline's recall@10
   * 0.659 → 0.732 and R@5 0.574 → 0.620 (weight 0.7, two turns each side); on the synthetic set
   * R@10 0.879 → 0.878.
   * docs/recall-design.md has the table.
   */
  readonly enabled: boolean;
  /** Share of the head candidate's score a neighbour gets. */
  readonly weight: number;
  /** How many top candidates pass score to their neighbours. */
  readonly head: number;
  /** Neighbours on each side. */
  readonly span: number;
  /**
   * Only around a memory whose turns around it (`span` each side) are two authors taking turns
   * (sessionNeighbours.ts, takesTurns): a conversation. On by default: in sessions of agents'
   * notes the neighbour is another note, and the stage lowered the synthetic set's R@10 by 0.018;
   * every development conversation takes turns (docs/recall-design.md, "Ninth round").
   */
  readonly turnTakingOnly: boolean;
}

export interface SpeakerMatchConfig {
  /**
   * Speaker-aware matching (speakerMatch.ts): when the query names some of the candidates'
   * authors, memories the other speakers wrote are lowered × (1 − penalty) (docs/recall-design.md,
   * "Sixth round").
   */
  readonly enabled: boolean;
  readonly penalty: number;
}

export interface SpeakerWindowConfig {
  /**
   * Speaker window (speakerMatch.ts, `speakerWindow`): when the query names a person who wrote some
   * of the candidates, the window the later stages see holds up to `named` windows' worth of
   * the named speakers' memories and `others` windows' worth of the rest, each in score order,
   * instead of the plain window: the named person's turns from deeper in the list reach the
   * learned order (docs/recall-design.md, "Twelfth round").
   */
  readonly enabled: boolean;
  /** The named speakers' memories kept, as a multiple of the plain window (1.25: 50 of a 40-memory window). */
  readonly named: number;
  /** The other memories kept, as a multiple of the plain window (0.5: 20). */
  readonly others: number;
}

export interface FeedbackConfig {
  /**
   * Pseudo-relevance feedback (feedbackExpansion.ts): words shared by the best lexical hits become
   * a second FTS query blended into the lexical channel. Off by default: with the defaults below
   * it lowered real recall@10 0.732 → 0.726 and synthetic R@5 0.841 → 0.829 (bench/quality.ts);
   * docs/recall-design.md has the table.
   */
  readonly enabled: boolean;
  /** Share of the lexical channel given to the feedback query's normalised bm25. */
  readonly weight: number;
  /** Best lexical hits read for feedback words. */
  readonly docs: number;
  /** Feedback words added. */
  readonly terms: number;
  /** A feedback word must occur in at least this many of those hits. */
  readonly minDocs: number;
}

export interface PinConfig {
  /** Pinned entities lift their relevant memories (setting `search.pinsFocal`, default on). */
  readonly enabled: boolean;
  /** Score factor for a relevant memory of a pinned entity (default 1.25: wins a near-tie, not a clear loss). */
  readonly lift: number;
  /** Relevance floor: only candidates scoring at least this share of the best candidate are lifted (default 0.6). */
  readonly floor: number;
}

export interface RerankConfig {
  readonly enabled: boolean;
  /** Head size 20, timeout 2000 ms (docs/recall-design.md, "Rerankers"). */
  readonly topN: number;
  readonly timeoutMs: number;
}

export interface SearchConfig {
  /** Vector weight in fusion: alpha·semantic + (1−alpha)·lexical (the spec's 0.7; 0.5 here, chosen on the dev set: docs/recall-design.md, "Twelfth round"). */
  readonly alpha: number;
  /** Fused candidates below this are dropped (default 0.1). */
  readonly minScore: number;
  /** Candidates per arm (default 20). */
  readonly topK: number;
  /** Default number of results (default 10, clamped 1..50). */
  readonly limit: number;
  /** Retrieval width = render width × overFetch (default 1 = the plain behaviour). */
  readonly overFetch: number;
  readonly lexical: LexicalConfig;
  readonly vector: VectorConfig;
  readonly hints: HintChannelConfig;
  readonly graphBoost: GraphBoostConfig;
  readonly traversal: TraversalConfig;
  readonly facets: FacetConfig;
  readonly temporalPrior: TemporalPriorConfig;
  readonly dateWindow: DateWindowConfig;
  readonly recency: RecencyConfig;
  readonly currentness: CurrentnessConfig;
  readonly dampening: DampeningConfig;
  readonly rerank: RerankConfig;
  readonly neighbours: SessionNeighbourConfig;
  readonly feedback: FeedbackConfig;
  readonly speakers: SpeakerMatchConfig;
  readonly speakerWindow: SpeakerWindowConfig;
  /**
   * Learned order (recall/learnedOrder.ts): the window reordered by a linear model over the arms'
   * ranks and the memory's form, its weights learned by bench/trainOrder.ts (docs/recall-design.md,
   * "Seventh round").
   */
  readonly learnedOrder: LearnedOrderConfig;
  /** Learned use (recall/learnedUse.ts): the feedback loop's evidence in recall. Off by default (docs/feedback.md). */
  readonly learnedUse: LearnedUseConfig;
  /** Pin priority (recall/pinPriority.ts). */
  readonly pins: PinConfig;
}

export const DEFAULT_SEARCH_CONFIG: SearchConfig = {
  // Chosen on the development conversations leave one out together with the speaker window
  // (docs/recall-design.md, "Twelfth round"); 0.4 before it. The spec's 0.7 loses with USE-lite.
  alpha: 0.5,
  minScore: 0.1,
  topK: 20,
  limit: 10,
  overFetch: 1,
  lexical: { enabled: true, probing: true, maxTerms: 8, candidateFactor: 5, majorityUpTo: 2, longQueryMinHits: 1, hitWeight: 0.5, commonTermFraction: 0.1, commonTermMinDocs: 1000, idfHits: true, questionWords: false },
  vector: { enabled: true, normalise: true, queryAdapter: true },
  hints: { enabled: true, hintOnlyCap: 0.75 },
  graphBoost: { enabled: false, weight: 0.15, timeoutMs: 500, maxEntities: 20, maxNeighbours: 50, maxMemories: 200, specificity: true, neighbourWeight: 0.5, minEntityWeight: 0.05 },
  traversal: {
    enabled: false, includePinned: false, maxAspectsPerEntity: 10, maxAttributesPerAspect: 20, maxPaths: 50,
    maxBranching: 4, minDependencyStrength: 0.3, minConfidence: 0.5, timeoutMs: 500,
    unanchoredCap: 0.35, anchorSemantic: 0.35, cosWeight: 0.7, minSpecificity: 0.3,
  },
  facets: { enabled: false, newFacetBonus: 0.08, repeatPenalty: 0.02, idfWeighted: true },
  temporalPrior: { enabled: false, maxBoost: 0.3, halfLifeDays: 14, referenceWindow: 5 },
  dateWindow: { enabled: true, boost: 0.3, beforeDays: 7, afterDays: 14 },
  recency: { enabled: false, halfLifeDays: 30, maxBonus: 0.15, rankStep: 0.1 },
  currentness: { enabled: true, onlySuperseded: 0.65, someSuperseded: 0.85, onlyActive: 1.03 },
  dampening: {
    gravityEnabled: false, gravityThreshold: 0.3, gravityPenalty: 0.5,
    hubEnabled: false, hubPercentile: 0.9, hubPenalty: 0.7, hubMinMentions: 10,
    resolutionEnabled: true, resolutionBoost: 1.2, resolutionMinChars: 50,
  },
  rerank: { enabled: false, topN: 20, timeoutMs: 2000 },
  // Weight and span chosen on the real dev conversations (docs/recall-design.md, "Session neighbours").
  neighbours: { enabled: true, weight: 0.7, head: 5, span: 2, turnTakingOnly: true },
  feedback: { enabled: false, weight: 0.2, docs: 5, terms: 5, minDocs: 2 },
  // Off since the learned order, which weighs who wrote a memory itself: with it the stage lowered
  // two development conversations (docs/recall-design.md, "Seventh round").
  speakers: { enabled: false, penalty: 0.15 },
  // On: chosen with alpha 0.5 leave one conversation out; held out it raised four development
  // conversations and lowered conv-41 by 0.007, three questions (docs/recall-design.md, "Twelfth round").
  speakerWindow: { enabled: true, named: 1.25, others: 0.5 },
  // On: learned on the development conversations, it raised R@10 on each of them held out
  // (docs/recall-design.md, "Seventh round"); bench/trainOrder.ts writes the weights.
  learnedOrder: { enabled: true, weights: LEARNED_ORDER_WEIGHTS },
  // Off: the replayed development conversations did not gain from it (docs/feedback.md).
  learnedUse: { enabled: false, boost: 0.2, minShown: 1 },
  // A pin reorders relevant results only (docs/recall-design.md, "Pins").
  pins: { enabled: true, lift: 1.25, floor: 0.6 },
};

/** A partial config: any group may be given partly. */
export type SearchConfigInput = {
  readonly [K in keyof SearchConfig]?: SearchConfig[K] extends object ? Partial<SearchConfig[K]> : SearchConfig[K];
};

function num(v: unknown, def: number, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) return def;
  return Math.min(max, Math.max(min, v));
}
function int(v: unknown, def: number, min: number, max: number): number {
  return Math.round(num(v, def, min, max));
}
function bool(v: unknown, def: boolean): boolean {
  return typeof v === 'boolean' ? v : def;
}

/** Learned-order weights: each given finite number replaces the default's (bench/trainOrder.ts scores its folds this way); `position` stays positive. */
function orderWeights(input: Partial<LearnedOrderWeights> | undefined, d: LearnedOrderWeights): LearnedOrderWeights {
  const out: Record<string, number> = { ...d };
  for (const k of Object.keys(d)) out[k] = num((input as Record<string, unknown> | undefined)?.[k], d[k as keyof LearnedOrderWeights], k === 'position' ? 1e-6 : -50, 50);
  return out as unknown as LearnedOrderWeights;
}

/** Fills defaults and clamps every number into its documented range. */
export function resolveSearchConfig(input: SearchConfigInput = {}): SearchConfig {
  const d = DEFAULT_SEARCH_CONFIG;
  const lx = input.lexical ?? {}, vc = input.vector ?? {}, hi = input.hints ?? {}, gb = input.graphBoost ?? {};
  const tr = input.traversal ?? {}, fc = input.facets ?? {}, tp = input.temporalPrior ?? {}, rc = input.recency ?? {};
  const cu = input.currentness ?? {}, dp = input.dampening ?? {}, rr = input.rerank ?? {};
  const nb = input.neighbours ?? {}, fb = input.feedback ?? {}, dw = input.dateWindow ?? {}, sp = input.speakers ?? {};
  const rankStep = num(rc.rankStep, d.recency.rankStep, 0.001, 1);
  return {
    alpha: num(input.alpha, d.alpha, 0, 1),
    minScore: num(input.minScore, d.minScore, 0, 1),
    topK: int(input.topK, d.topK, 1, 500),
    limit: int(input.limit, d.limit, 1, 50),
    overFetch: int(input.overFetch, d.overFetch, 1, 20),
    lexical: {
      enabled: bool(lx.enabled, d.lexical.enabled), probing: bool(lx.probing, d.lexical.probing),
      maxTerms: int(lx.maxTerms, d.lexical.maxTerms, 1, 32), candidateFactor: int(lx.candidateFactor, d.lexical.candidateFactor, 1, 50),
      majorityUpTo: int(lx.majorityUpTo, d.lexical.majorityUpTo, 2, 32), longQueryMinHits: int(lx.longQueryMinHits, d.lexical.longQueryMinHits, 1, 32),
      hitWeight: num(lx.hitWeight, d.lexical.hitWeight, 0, 1),
      commonTermFraction: num(lx.commonTermFraction, d.lexical.commonTermFraction, 0.01, 1),
      commonTermMinDocs: int(lx.commonTermMinDocs, d.lexical.commonTermMinDocs, 0, 1_000_000_000),
      idfHits: bool(lx.idfHits, d.lexical.idfHits), questionWords: bool(lx.questionWords, d.lexical.questionWords),
    },
    vector: {
      enabled: bool(vc.enabled, d.vector.enabled), normalise: bool(vc.normalise, d.vector.normalise), queryAdapter: bool(vc.queryAdapter, d.vector.queryAdapter),
      ...(isQueryAdapter(vc.adapter) ? { adapter: vc.adapter } : {}),
    },
    hints: { enabled: bool(hi.enabled, d.hints.enabled), hintOnlyCap: num(hi.hintOnlyCap, d.hints.hintOnlyCap, 0, 1) },
    graphBoost: {
      enabled: bool(gb.enabled, d.graphBoost.enabled), weight: num(gb.weight, d.graphBoost.weight, 0, 1),
      timeoutMs: int(gb.timeoutMs, d.graphBoost.timeoutMs, 0, 10_000), maxEntities: int(gb.maxEntities, d.graphBoost.maxEntities, 1, 1000),
      maxNeighbours: int(gb.maxNeighbours, d.graphBoost.maxNeighbours, 0, 1000), maxMemories: int(gb.maxMemories, d.graphBoost.maxMemories, 1, 10_000),
      specificity: bool(gb.specificity, d.graphBoost.specificity), neighbourWeight: num(gb.neighbourWeight, d.graphBoost.neighbourWeight, 0, 1),
      minEntityWeight: num(gb.minEntityWeight, d.graphBoost.minEntityWeight, 0, 1),
    },
    traversal: {
      enabled: bool(tr.enabled, d.traversal.enabled), includePinned: bool(tr.includePinned, d.traversal.includePinned),
      maxAspectsPerEntity: int(tr.maxAspectsPerEntity, d.traversal.maxAspectsPerEntity, 1, 100),
      maxAttributesPerAspect: int(tr.maxAttributesPerAspect, d.traversal.maxAttributesPerAspect, 1, 200),
      maxPaths: int(tr.maxPaths, d.traversal.maxPaths, 1, 1000), maxBranching: int(tr.maxBranching, d.traversal.maxBranching, 0, 50),
      minDependencyStrength: num(tr.minDependencyStrength, d.traversal.minDependencyStrength, 0, 1),
      minConfidence: num(tr.minConfidence, d.traversal.minConfidence, 0, 1), timeoutMs: int(tr.timeoutMs, d.traversal.timeoutMs, 0, 10_000),
      unanchoredCap: num(tr.unanchoredCap, d.traversal.unanchoredCap, 0, 1), anchorSemantic: num(tr.anchorSemantic, d.traversal.anchorSemantic, 0, 1),
      cosWeight: num(tr.cosWeight, d.traversal.cosWeight, 0, 1), minSpecificity: num(tr.minSpecificity, d.traversal.minSpecificity, 0, 1),
    },
    facets: {
      enabled: bool(fc.enabled, d.facets.enabled), newFacetBonus: num(fc.newFacetBonus, d.facets.newFacetBonus, 0, 1),
      repeatPenalty: num(fc.repeatPenalty, d.facets.repeatPenalty, 0, 1), idfWeighted: bool(fc.idfWeighted, d.facets.idfWeighted),
    },
    temporalPrior: {
      enabled: bool(tp.enabled, d.temporalPrior.enabled), maxBoost: num(tp.maxBoost, d.temporalPrior.maxBoost, 0, 1),
      halfLifeDays: num(tp.halfLifeDays, d.temporalPrior.halfLifeDays, 0.1, 3650),
      referenceWindow: int(tp.referenceWindow, d.temporalPrior.referenceWindow, 1, 500),
    },
    dateWindow: {
      enabled: bool(dw.enabled, d.dateWindow.enabled), boost: num(dw.boost, d.dateWindow.boost, 0, 1),
      beforeDays: num(dw.beforeDays, d.dateWindow.beforeDays, 0, 3650), afterDays: num(dw.afterDays, d.dateWindow.afterDays, 0, 3650),
    },
    recency: {
      enabled: bool(rc.enabled, d.recency.enabled), halfLifeDays: num(rc.halfLifeDays, d.recency.halfLifeDays, 0.1, 3650),
      // Kept strictly below one rank step so recency can only break near-ties.
      maxBonus: num(rc.maxBonus, d.recency.maxBonus, 0, 0.99), rankStep,
    },
    currentness: {
      enabled: bool(cu.enabled, d.currentness.enabled), onlySuperseded: num(cu.onlySuperseded, d.currentness.onlySuperseded, 0, 1),
      someSuperseded: num(cu.someSuperseded, d.currentness.someSuperseded, 0, 1), onlyActive: num(cu.onlyActive, d.currentness.onlyActive, 1, 2),
    },
    dampening: {
      gravityEnabled: bool(dp.gravityEnabled, d.dampening.gravityEnabled), gravityThreshold: num(dp.gravityThreshold, d.dampening.gravityThreshold, 0, 1),
      gravityPenalty: num(dp.gravityPenalty, d.dampening.gravityPenalty, 0, 1),
      hubEnabled: bool(dp.hubEnabled, d.dampening.hubEnabled), hubPercentile: num(dp.hubPercentile, d.dampening.hubPercentile, 0, 1),
      hubPenalty: num(dp.hubPenalty, d.dampening.hubPenalty, 0, 1), hubMinMentions: int(dp.hubMinMentions, d.dampening.hubMinMentions, 0, 1_000_000_000),
      resolutionEnabled: bool(dp.resolutionEnabled, d.dampening.resolutionEnabled), resolutionBoost: num(dp.resolutionBoost, d.dampening.resolutionBoost, 1, 3),
      resolutionMinChars: int(dp.resolutionMinChars, d.dampening.resolutionMinChars, 0, 10_000),
    },
    rerank: {
      enabled: bool(rr.enabled, d.rerank.enabled), topN: int(rr.topN, d.rerank.topN, 1, 200),
      timeoutMs: int(rr.timeoutMs, d.rerank.timeoutMs, 1, 60_000),
    },
    neighbours: {
      enabled: bool(nb.enabled, d.neighbours.enabled), weight: num(nb.weight, d.neighbours.weight, 0, 1),
      head: int(nb.head, d.neighbours.head, 1, 100), span: int(nb.span, d.neighbours.span, 1, 10),
      turnTakingOnly: bool(nb.turnTakingOnly, d.neighbours.turnTakingOnly),
    },
    feedback: {
      enabled: bool(fb.enabled, d.feedback.enabled), weight: num(fb.weight, d.feedback.weight, 0, 1),
      docs: int(fb.docs, d.feedback.docs, 1, 50), terms: int(fb.terms, d.feedback.terms, 1, 32), minDocs: int(fb.minDocs, d.feedback.minDocs, 1, 50),
    },
    speakers: { enabled: bool(sp.enabled, d.speakers.enabled), penalty: num(sp.penalty, d.speakers.penalty, 0, 0.9) },
    speakerWindow: {
      enabled: bool(input.speakerWindow?.enabled, d.speakerWindow.enabled),
      named: num(input.speakerWindow?.named, d.speakerWindow.named, 0.25, 5), others: num(input.speakerWindow?.others, d.speakerWindow.others, 0, 5),
    },
    learnedOrder: { enabled: bool(input.learnedOrder?.enabled, d.learnedOrder.enabled), weights: orderWeights(input.learnedOrder?.weights, d.learnedOrder.weights) },
    learnedUse: { enabled: bool(input.learnedUse?.enabled, d.learnedUse.enabled), boost: num(input.learnedUse?.boost, d.learnedUse.boost, 0, 0.9), minShown: int(input.learnedUse?.minShown, d.learnedUse.minShown, 1, 100) },
    pins: {
      enabled: bool(input.pins?.enabled, d.pins.enabled), lift: num(input.pins?.lift, d.pins.lift, 1, 3),
      floor: num(input.pins?.floor, d.pins.floor, 0, 1),
    },
  };
}
