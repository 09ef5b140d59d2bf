/**
 * The stages after fusion, as data (docs/recall-design.md "Stages after fusion"): an ordered list
 * of `{ id, enabled(cfg), apply }`. rankRecall (recallPipeline.ts) runs every enabled stage in
 * this order over the gathered candidates. Each stage records its score changes in the
 * candidates' explain (boosts / penalties named after the stage, plus notes), so "why was this
 * recalled" still names every stage's effect; the ids of the stages that ran come back with the
 * recall.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { RerankOptions } from '../models/rerank';
import type { MemoryStore } from '../store/storeTypes';
import { applyCurrentness } from './currentness';
import { applyDateWindow } from './dateWindow';
import { applyDampening } from './dampening';
import { shapeByFacetCoverage } from './facetCoverage';
import { loadAttributeStates, loadHubInput } from './candidateGraphFacts';
import { termWeights } from './lexicalArm';
import { significantTokens } from './queryTerms';
import { withoutQuestionWords } from './questionWords';
import { expandSessionNeighbours, loadSessionNeighbours } from './sessionNeighbours';
import { applySpeakerMatch, isNameable, namedSpeakers, speakerWindow } from './speakerMatch';
import type { AuthorsOf } from './speakerMatch';
import { applyLearnedOrder, loadDialogueTurns, loadOrderContext, windowVectors } from './learnedOrder';
import { applyLearnedUse, loadPastUse } from './learnedUse';
import type { GatheredCandidates } from './recallCandidates';
import { applyPinPriority, loadPinnedLinks } from './pinPriority';
import { hasTimeBounds } from './recallFilter';
import { DEFAULT_RECALL_AGENT } from './recallRequest';
import type { RecallDeps, RecallRequest } from './recallRequest';
import { recallReranker } from './recallReranker';
import { applyDelta, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';
import { rerankHead } from './rerankHead';
import { applyRecencyTieBreak, applyTemporalPrior } from './temporalSignals';
import { termStatsFor } from './termStats';

/** What a stage may read: the request, its config and models, and what gathering found. */
export interface StageContext {
  readonly store: MemoryStore;
  readonly req: RecallRequest;
  readonly deps: RecallDeps;
  readonly cfg: SearchConfig;
  readonly gathered: GatheredCandidates;
  /** Clock time of the recall (ms). */
  readonly now: number;
  /** Render width × over-fetch: how many candidates the caller may keep. */
  readonly width: number;
  /** Recall-level notes (a reranker's fallback reason, ...). */
  readonly notes: string[];
  /** The candidates' authors, each read once in the recall (speakerMatch.ts, `recallAuthors`). */
  readonly authorsOf: AuthorsOf;
}

export interface RecallStage {
  readonly id: string;
  enabled(cfg: SearchConfig): boolean;
  apply(cands: Candidate[], ctx: StageContext): Candidate[] | Promise<Candidate[]>;
}

/**
 * Speaker-aware matching (speakerMatch.ts): when the query names some of the candidates' authors,
 * the other speakers' memories in the window are lowered, after session neighbours and the rerank
 * have done their work (docs/recall-design.md, "Sixth round").
 */
const speakerStage: RecallStage = {
  id: 'speakers',
  enabled: (cfg) => cfg.speakers.enabled,
  apply(cands, { store, req, cfg, authorsOf }) {
    const authors = store.read((db) => authorsOf(db, cands.map((c) => c.id)));
    return applySpeakerMatch(cands, req.query, authors, cfg.speakers);
  },
};

/** Learned use (learnedUse.ts): memories that paid off when shown before are lifted, unused ones lowered. Off by default. */
const learnedUseStage: RecallStage = {
  id: 'learnedUse',
  enabled: (cfg) => cfg.learnedUse.enabled,
  apply(cands, { store, req, cfg }) {
    const past = store.read((db) => loadPastUse(db, cands.map((c) => c.id), req.agentId ?? DEFAULT_RECALL_AGENT, req.session));
    return applyLearnedUse(cands, past, cfg.learnedUse);
  },
};

/**
 * Session neighbours (sessionNeighbours.ts): the turns next to a head candidate in the same capture
 * session join or are lifted at a share of its score (docs/recall-design.md, "Session neighbours").
 */
const sessionNeighboursStage: RecallStage = {
  id: 'sessionNeighbours',
  enabled: (cfg) => cfg.neighbours.enabled,
  apply(cands, { store, cfg, gathered }) {
    const head = cands.slice(0, cfg.neighbours.head).map((c) => c.id);
    const neighbours = store.read((db) => loadSessionNeighbours(db, head, cfg.neighbours.span, gathered.filter, cfg.neighbours.turnTakingOnly));
    const { queryVector, vectors } = gathered;
    const cosine = (id: string): number => (cfg.vector.enabled && queryVector && vectors ? Math.max(0, vectors.vectors.cosine(id, queryVector) ?? 0) : 0);
    return expandSessionNeighbours(cands, neighbours, cfg.neighbours, (id) => ({ lexical: 0, semantic: cosine(id), hint: 0, traversal: 0 }));
  },
};

/** Additive boost for memories linked to an entity the query names (graphBoost.ts). */
const graphBoostStage: RecallStage = {
  id: 'graphBoost',
  enabled: (cfg) => cfg.graphBoost.enabled,
  apply(cands, { cfg, gathered }) {
    const boost = gathered.graphBoost;
    if (!boost || boost.memoryIds.size === 0) return cands;
    for (const c of cands) {
      const w = boost.weights.get(c.id);
      if (w !== undefined && w > 0) applyDelta(c, 'graphBoost', cfg.graphBoost.weight * w, w < 1 ? `linked to an entity named in the query (specificity × centrality ${w.toFixed(2)})` : 'linked to an entity named in the query');
    }
    return sortByScore(cands);
  },
};

/** Newer memories first when the query asks for the current state (temporalSignals.ts). */
const temporalPriorStage: RecallStage = {
  id: 'temporalPrior',
  enabled: (cfg) => cfg.temporalPrior.enabled,
  apply: (cands, { req, cfg, gathered, now }) => applyTemporalPrior(cands, req.query, now, hasTimeBounds(gathered.filter), cfg.temporalPrior),
};

/** Candidates created around a date the query names up (dateWindow.ts). */
const dateWindowStage: RecallStage = {
  id: 'dateWindow',
  enabled: (cfg) => cfg.dateWindow.enabled,
  apply: (cands, { req, cfg, gathered }) => applyDateWindow(cands, req.query, hasTimeBounds(gathered.filter), cfg.dateWindow),
};

/**
 * Rerank of the head (rerankHead.ts) with the reranker the deps choose (recallReranker.ts); its
 * head size and timeout come from that choice (models.rerankTopN / rerankTimeoutMs, or the
 * cross-encoder's own), else from `cfg.rerank`. A failure keeps the order and says why in notes.
 */
const rerankStage: RecallStage = {
  id: 'rerank',
  enabled: (cfg) => cfg.rerank.enabled,
  async apply(cands, { req, deps, cfg, gathered, notes }) {
    const chosen = recallReranker(deps, gathered.queryVector, gathered.vectors);
    const options: RerankOptions = chosen.options ?? { topN: cfg.rerank.topN, timeoutMs: cfg.rerank.timeoutMs };
    const rr = await rerankHead(req.query, cands, chosen.reranker, { enabled: true, ...options });
    if (rr.note) notes.push(rr.note);
    return rr.ranked;
  },
};

/**
 * The later stages look at a window of twice the kept width (at least topK); the rest is cut here,
 * and the window is ordered by score again (a reranked head can end below its untouched tail).
 * When the query names a speaker of the candidates, the window is the speaker window instead
 * (speakerMatch.ts, `speakerWindow`). The authors come with the candidates' rows (`authorsOf` reads
 * only memories a stage added); the rest of the list is looked at only when a person (not a role
 * such as "user") wrote one of the window's memories, so notes keep the plain window at once.
 */
const windowStage: RecallStage = {
  id: 'window',
  enabled: () => true,
  apply(cands, { store, req, cfg, width, authorsOf }) {
    const size = Math.max(width, cfg.topK) * 2;
    const head = cands.slice(0, size);
    if (!cfg.speakerWindow.enabled || cands.length <= size) return sortByScore(head);
    const headAuthors = store.read((db) => authorsOf(db, head.map((c) => c.id)));
    if (![...headAuthors.values()].some(isNameable)) return sortByScore(head);
    const authors = store.read((db) => authorsOf(db, cands.map((c) => c.id)));
    const named = namedSpeakers(req.query, authors.values());
    if (named.size === 0) return sortByScore(head);
    const { named: namedShare, others } = cfg.speakerWindow;
    return sortByScore(speakerWindow(cands, authors, named, Math.round(size * namedShare), Math.round(size * others)));
  },
};

/**
 * Gravity, hub and resolution (dampening.ts). Resolution's half boost for a dated note leaves out
 * the turns of a dialogue between two people (learnedOrder.ts, `loadDialogueTurns`): the authors of
 * the candidates that name a date are read, and the turns around those a person wrote.
 */
const dampeningStage: RecallStage = {
  id: 'dampening',
  enabled: (cfg) => cfg.dampening.gravityEnabled || cfg.dampening.hubEnabled || cfg.dampening.resolutionEnabled,
  apply(cands, { store, req, cfg, gathered, authorsOf }) {
    const hub = cfg.dampening.hubEnabled ? store.read((db) => loadHubInput(db, cands.map((c) => c.id))) : undefined;
    const dialogueTurnsOf = (ids: readonly string[]): Set<string> => store.read((db) => loadDialogueTurns(db, ids, gathered.filter, authorsOf));
    return applyDampening(cands, significantTokens(req.query), hub, cfg.dampening, dialogueTurnsOf);
  },
};

/** Superseded facts down, their replacements up (currentness.ts). */
const currentnessStage: RecallStage = {
  id: 'currentness',
  enabled: (cfg) => cfg.currentness.enabled,
  apply(cands, { store, req, cfg }) {
    const states = store.read((db) => loadAttributeStates(db, cands.map((c) => c.id)));
    return applyCurrentness(cands, states, req.query, cfg.currentness);
  },
};

/** A bonus below one rank step for newer memories (temporalSignals.ts). */
const recencyStage: RecallStage = {
  id: 'recency',
  enabled: (cfg) => cfg.recency.enabled,
  apply: (cands, { cfg, now }) => applyRecencyTieBreak(cands, now, cfg.recency),
};

/** Greedy pick over the head favouring results that cover query words not yet covered (facetCoverage.ts). */
const facetStage: RecallStage = {
  id: 'facets',
  enabled: (cfg) => cfg.facets.enabled,
  apply(cands, { store, req, cfg, width }) {
    const facets = cfg.lexical.questionWords ? withoutQuestionWords(significantTokens(req.query)) : significantTokens(req.query);
    const weights = cfg.facets.idfWeighted && facets.length > 1 ? store.read((db) => termWeights(db, facets, termStatsFor(store))) : undefined;
    return shapeByFacetCoverage(cands, facets, Math.max(width, cfg.topK), cfg.facets, weights);
  },
};

/**
 * The window reordered by the learned model over the arms' ranks and each memory's form
 * (learnedOrder.ts); right after the speaker stage, so that currentness (a superseded fact below
 * the one that replaced it), the later stages and pins still have their say on its order.
 */
const learnedOrderStage: RecallStage = {
  id: 'learnedOrder',
  enabled: (cfg) => cfg.learnedOrder.enabled,
  apply(cands, { store, req, cfg, gathered, authorsOf }) {
    const ctx = store.read((db) => loadOrderContext(db, cands, req.query, gathered.filter, windowVectors(gathered.vectors), authorsOf));
    return applyLearnedOrder(cands, ctx, cfg.learnedOrder);
  },
};

/**
 * Relevant memories of a pinned entity above equally relevant ones (pinPriority.ts); last, so no
 * later stage undoes the user's choice, and only above the relevance floor.
 */
const pinStage: RecallStage = {
  id: 'pins',
  enabled: (cfg) => cfg.pins.enabled,
  apply(cands, { store, req, cfg }) {
    const links = store.read((db) => loadPinnedLinks(db, cands.map((c) => c.id), req.agentId ?? DEFAULT_RECALL_AGENT));
    return applyPinPriority(cands, links, cfg.pins);
  },
};

/** The stages after fusion, in the order they run. */
export const RECALL_STAGES: readonly RecallStage[] = [
  learnedUseStage, sessionNeighboursStage, graphBoostStage, temporalPriorStage, dateWindowStage, rerankStage, windowStage, speakerStage, learnedOrderStage, dampeningStage, currentnessStage, recencyStage, facetStage, pinStage,
];

/** Runs every enabled stage in order; returns the candidates and the ids of the stages that ran. */
export async function runStages(stages: readonly RecallStage[], cands: Candidate[], ctx: StageContext): Promise<{ candidates: Candidate[]; ran: string[] }> {
  let out = cands;
  const ran: string[] = [];
  for (const stage of stages) {
    if (!stage.enabled(ctx.cfg)) continue;
    out = await stage.apply(out, ctx);
    ran.push(stage.id);
  }
  return { candidates: out, ran };
}
