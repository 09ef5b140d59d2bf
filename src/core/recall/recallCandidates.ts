/**
 * Candidate gathering, the first half of recall (docs/recall-design.md "Arms" and "Fusion"): the
 * lexical, hints and vector arms, the graph lookups (focal entities + traversal, graph-boost ids),
 * hydration with the request's filter, and fusion with evidence shaping. What it returns is
 * sorted by fused score; the stages (recallStages.ts) then reorder it.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { MemoryStore } from '../store/storeTypes';
import { shapeScore } from './evidenceShaping';
import { projectTokens, resolveFocalEntities } from './focalEntities';
import type { FocalEntityResult } from './focalEntities';
import { getGraphBoostIds, specificEntities } from './graphBoost';
import type { GraphBoostResult } from './graphBoost';
import { hintSearch, lexicalSearch } from './lexicalArm';
import { lexicalIndexFor } from './lexicalIndex';
import { hydrateInto } from './memoryRows';
import type { MemoryRow } from './memoryRows';
import type { LexicalHit } from './lexicalArm';
import { queryTerms } from './queryTerms';
import { withoutQuestionWords } from './questionWords';
import { feedbackLexical } from './feedbackExpansion';
import { embedQuery } from './queryAdapter';
import type { MemoryFilter } from './recallFilter';
import { DEFAULT_RECALL_AGENT } from './recallRequest';
import type { RecallDeps, RecallRequest } from './recallRequest';
import { sortByScore } from './recallTypes';
import type { Candidate, ChannelScores } from './recallTypes';
import { termStatsFor } from './termStats';
import { traverseKnowledgeGraph } from './traversal';
import type { TraversalResult } from './traversal';
import { VectorIndex } from './vectorIndex';

export interface RecallTimings {
  embedMs: number;
  lexicalMs: number;
  vectorMs: number;
  graphMs: number;
  stagesMs: number;
  totalMs: number;
}

/** What gathering found: the fused candidates plus what the stages need from the arms. */
export interface GatheredCandidates {
  /** Fused candidates, best first. */
  readonly candidates: Candidate[];
  readonly filter: MemoryFilter;
  /** Words of the request's project name (no evidence under a project filter). */
  readonly projectWords: ReadonlySet<string>;
  readonly queryVector: Float32Array | undefined;
  readonly vectors: VectorIndex | undefined;
  readonly focal: FocalEntityResult | undefined;
  readonly traversal: TraversalResult | undefined;
  readonly graphBoost: GraphBoostResult | undefined;
  /** Lexical-arm hits that survived hydration (for fts_hit_count), best first. */
  readonly lexicalIds: string[];
  readonly timings: RecallTimings;
  readonly notes: string[];
  /** performance.now() when fusion began: `timings.stagesMs` counts from there. */
  readonly fusionStartedAt: number;
  /** Each candidate's author (null for none), read with its row: the stages' `authorsOf` starts from these. */
  readonly authors: ReadonlyMap<string, string | null>;
}

function sourcesOf(ch: ChannelScores, lex: LexicalHit | undefined, vecCandidate: boolean): string[] {
  const s: string[] = [];
  if (lex) s.push('lexical');
  if (vecCandidate) s.push('vector');
  if (ch.hint > 0) s.push('hint');
  if (ch.traversal > 0) s.push('traversal');
  return s;
}

export function requestFilter(req: RecallRequest): MemoryFilter {
  return { ...(req.project !== undefined ? { project: req.project } : {}), ...(req.since !== undefined ? { since: req.since } : {}), ...(req.until !== undefined ? { until: req.until } : {}) };
}

export async function gatherCandidates(store: MemoryStore, req: RecallRequest, deps: RecallDeps, cfg: SearchConfig, vectorsIn: VectorIndex | undefined): Promise<GatheredCandidates> {
  const filter = requestFilter(req);
  // With a project filter, the project's own name is no evidence (every candidate belongs to it).
  const projectWords = new Set(req.project !== undefined ? projectTokens(req.project).flatMap((t) => t.split(/[-_]/)).concat(projectTokens(req.project)) : []);
  const parsedTerms = queryTerms(req.query, cfg.lexical.maxTerms * 2 + projectWords.size);
  const allTerms = cfg.lexical.questionWords ? withoutQuestionWords(parsedTerms) : parsedTerms;
  const contentTerms = allTerms.filter((t) => !projectWords.has(t));
  const terms = (contentTerms.length > 0 ? contentTerms : allTerms).slice(0, cfg.lexical.maxTerms);
  const notes: string[] = [];
  const timings: RecallTimings = { embedMs: 0, lexicalMs: 0, vectorMs: 0, graphMs: 0, stagesMs: 0, totalMs: 0 };
  const wantVector = cfg.vector.enabled && deps.embedder !== undefined;
  const embedding = wantVector ? (async () => {
    const e0 = performance.now();
    try { return await embedQuery(deps.embedder as NonNullable<RecallDeps['embedder']>, req.query, cfg.vector); }
    catch { notes.push('query embedding failed; lexical recall only'); return undefined; }
    finally { timings.embedMs = performance.now() - e0; }
  })() : Promise.resolve(undefined);
  if (cfg.vector.enabled && !deps.embedder) notes.push('no embedder configured; vector arm off');

  const l0 = performance.now();
  const stats = termStatsFor(store);
  // Rows the lexical arm read (with the filter applied): hydration does not read them again.
  const lexicalRows = new Map<string, MemoryRow>();
  const { queryHits, lexical, hints } = store.read((db) => {
    const queryHits = cfg.lexical.enabled ? lexicalSearch(db, terms, filter, cfg, stats, lexicalIndexFor(store), lexicalRows) : new Map<string, LexicalHit>();
    return {
      queryHits,
      // Pseudo-relevance feedback (feedbackExpansion.ts, off by default) blends a second query into the lexical channel.
      lexical: cfg.feedback.enabled ? feedbackLexical(db, queryHits, terms, filter, cfg) : queryHits,
      hints: cfg.hints.enabled ? hintSearch(db, terms, filter, cfg) : new Map<string, number>(),
    };
  });
  timings.lexicalMs = performance.now() - l0;

  // The index is brought up to date while the embedder works on the query in its worker thread:
  // the first recall of a process loads every vector here (1.2 s at 100k memories), which used to
  // start only after the model had loaded and answered (docs/store.md, "recall --stdin at 100k").
  const v0 = performance.now();
  let vectors = vectorsIn;
  if (wantVector && deps.embedder) {
    vectors ??= new VectorIndex(deps.embedder.id, deps.embedder.dims);
    const vi = vectors;
    store.read((db) => vi.sync(db));
  }
  const syncMs = performance.now() - v0;
  const qvec = await embedding;
  const v1 = performance.now();
  const vecTop = new Map<string, number>();
  if (qvec && vectors) {
    for (const [id, s] of vectors.vectors.topK(qvec, cfg.topK * cfg.lexical.candidateFactor)) vecTop.set(id, Math.max(0, s));
  }
  timings.vectorMs = syncMs + (performance.now() - v1);
  const cosine = (id: string): number | undefined => (qvec && vectors ? vectors.vectors.cosine(id, qvec) : undefined);
  const bestCosine = Math.max(0, ...vecTop.values());
  const semanticScale = cfg.vector.normalise && bestCosine > 0 ? 1 / bestCosine : 1;

  const g0 = performance.now();
  const agentId = req.agentId ?? DEFAULT_RECALL_AGENT;
  const graph = store.read((db) => {
    // Pinned entities are focal in every recall (search.pinsFocal); the rest of focal resolution
    // (checkpoint, query) only runs with traversal on. Recall resolves focal entities from the
    // query, not the project: the project entity is a hub linked to every memory of the project.
    const pinsFocal = cfg.traversal.includePinned;
    const focal = cfg.traversal.enabled || pinsFocal
      ? resolveFocalEntities(db, {
        agentId, includePinned: pinsFocal,
        ...(cfg.traversal.enabled ? { queryTokens: terms, ...(req.checkpointEntityIds ? { checkpointEntityIds: req.checkpointEntityIds } : {}), ...(req.session !== undefined ? { sessionKey: req.session } : {}) } : {}),
      })
      : undefined;
    const pinned = focal?.pinnedEntityIds ?? [];
    const resolved = focal ? focal.entityIds.filter((id) => !pinned.includes(id)) : [];
    // A pin is focal whatever its specificity; entities resolved from the query must be specific.
    const focalIds = [...pinned, ...(focal?.source === 'query' ? specificEntities(db, resolved, cfg.traversal.minSpecificity) : resolved)];
    const trav = focalIds.length > 0 ? traverseKnowledgeGraph(db, focalIds, cfg.traversal, Date.now, agentId) : undefined;
    const boost = cfg.graphBoost.enabled ? getGraphBoostIds(db, req.query, cfg.graphBoost, Date.now, projectWords, agentId) : undefined;
    return { focal, trav, boost };
  });
  if (graph.boost?.timedOut) notes.push('graph boost timed out; partial set used');
  if (graph.trav?.timedOut) notes.push('traversal timed out; partial set used');
  timings.graphMs = performance.now() - g0;

  const s0 = performance.now();
  // Fusion weight for the arms that actually ran: without a query vector the lexical channel gets
  // the full weight (keyword-only recall), without the lexical arm the semantic channel does.
  // The traversal channel counts whenever a traversal ran (pinned focal entities run one with
  // traversal otherwise off).
  const shaping = { ...cfg, alpha: !qvec ? 0 : cfg.lexical.enabled ? cfg.alpha : 1, traversal: { ...cfg.traversal, enabled: graph.trav !== undefined } };
  const ids = [...new Set([...lexical.keys(), ...hints.keys(), ...vecTop.keys(), ...(graph.trav?.memoryScores.keys() ?? [])])];
  const rows = store.read((db) => hydrateInto(db, ids, filter, lexicalRows));
  const cands: Candidate[] = [];
  const authors = new Map<string, string | null>();
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) continue;
    const lex = lexical.get(id);
    const cos = cosine(id);
    const sem = cfg.vector.enabled && cos !== undefined ? Math.max(0, cos) : 0;
    const travImp = graph.trav?.memoryScores.get(id);
    const traversal = travImp === undefined ? 0
      : cos === undefined ? Math.min(1, Math.max(cfg.minScore, travImp))
        : cfg.traversal.cosWeight * Math.max(0, cos) + (1 - cfg.traversal.cosWeight) * Math.min(1, Math.max(cfg.minScore, travImp));
    const channels: ChannelScores = { lexical: lex?.score ?? 0, semantic: sem, hint: hints.get(id) ?? 0, traversal };
    const shaped = shapeScore(channels, shaping, semanticScale);
    if (shaped.score < cfg.minScore) continue;
    const explain = {
      channels, fused: shaped.score, sources: sourcesOf(channels, lex, vecTop.has(id)),
      ...(lex ? { termsHit: lex.hits, termCount: lex.termCount } : {}),
      boosts: [], penalties: [], notes: [...shaped.notes], score: shaped.score,
    };
    if (graph.trav?.constraintMemoryIds.has(id)) explain.notes.push(`constraint of a focal entity (${graph.focal?.entityNames.join(', ')})`);
    cands.push({ id, content: row.content, type: row.type, createdAt: row.created_at, sourceId: row.source_id, importance: row.importance, score: shaped.score, channels, explain });
    authors.set(id, row.who);
  }
  const lexicalIds = [...queryHits.entries()].sort((a, b) => b[1].score - a[1].score).map(([id]) => id).filter((id) => rows.has(id));
  return {
    candidates: sortByScore(cands), filter, projectWords, queryVector: qvec, vectors,
    focal: graph.focal, traversal: graph.trav, graphBoost: graph.boost, lexicalIds, timings, notes, fusionStartedAt: s0, authors,
  };
}
