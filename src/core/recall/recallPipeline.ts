/**
 * The recall pipeline: arms → hydration with the filter → channel shaping → post-fusion stages →
 * over-fetch + filter hook → render width. Reads only; recallService.ts adds the bookkeeping.
 * Stage order: fusion/evidence shaping, session neighbours, graph boost, temporal prior, rerank of the head,
 * dampening, currentness, recency tie-break, facet coverage.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { MemoryStore, SqlReader } from '../store/storeTypes';
import { applyCurrentness } from './currentness';
import { applyDampening } from './dampening';
import { shapeScore } from './evidenceShaping';
import { shapeByFacetCoverage } from './facetCoverage';
import { feedbackLexical } from './feedbackExpansion';
import { projectTokens, resolveFocalEntities } from './focalEntities';
import { getGraphBoostIds, specificEntities } from './graphBoost';
import { loadAttributeStates, loadHubInput } from './graphContext';
import { hintSearch, lexicalSearch, termWeights } from './lexicalArm';
import type { LexicalHit } from './lexicalArm';
import { selectResults } from './overFetch';
import { expandSessionNeighbours, loadSessionNeighbours } from './sessionNeighbours';
import { withoutQuestionWords } from './questionWords';
import { queryTerms, significantTokens } from './queryTerms';
import { filterClause, hasTimeBounds } from './recallFilter';
import type { MemoryFilter } from './recallFilter';
import type { RecallDeps, RecallRequest } from './recallRequest';
import { applyDelta, sortByScore } from './recallTypes';
import type { Candidate, ChannelScores } from './recallTypes';
import { rerankHead } from './rerankHead';
import { createEmbeddingReranker } from '../models/embeddingReranker';
import { applyRecencyTieBreak, applyTemporalPrior } from './temporalSignals';
import { traverseKnowledgeGraph } from './traversal';
import { VectorIndex } from './vectorIndex';

export interface RecallTimings {
  embedMs: number;
  lexicalMs: number;
  vectorMs: number;
  graphMs: number;
  stagesMs: number;
  totalMs: number;
}

export interface RankedRecall {
  readonly results: Candidate[];
  /** Lexical-arm hits (for fts_hit_count), best first. */
  readonly lexicalIds: string[];
  readonly timings: RecallTimings;
  readonly notes: string[];
}

interface MemoryRow { id: string; content: string; type: string; created_at: string; source_id: string | null; importance: number }

function hydrate(db: SqlReader, ids: readonly string[], filter: MemoryFilter): Map<string, MemoryRow> {
  const out = new Map<string, MemoryRow>();
  const f = filterClause(filter);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const r of db.all<MemoryRow>(
      `SELECT m.id AS id, m.content AS content, m.type AS type, m.created_at AS created_at, m.source_id AS source_id, m.importance AS importance
         FROM memories m WHERE m.id IN (${chunk.map(() => '?').join(',')}) AND ${f.sql}`, [...chunk, ...f.params])) out.set(r.id, r);
  }
  return out;
}

function sourcesOf(ch: ChannelScores, lex: LexicalHit | undefined, vecCandidate: boolean): string[] {
  const s: string[] = [];
  if (lex) s.push('lexical');
  if (vecCandidate) s.push('vector');
  if (ch.hint > 0) s.push('hint');
  if (ch.traversal > 0) s.push('traversal');
  return s;
}

export async function rankRecall(store: MemoryStore, req: RecallRequest, deps: RecallDeps, cfg: SearchConfig, vectorsIn: VectorIndex | undefined): Promise<RankedRecall> {
  const t0 = performance.now();
  const limit = req.limit ?? cfg.limit;
  const filter: MemoryFilter = { ...(req.project !== undefined ? { project: req.project } : {}), ...(req.since !== undefined ? { since: req.since } : {}), ...(req.until !== undefined ? { until: req.until } : {}) };
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
    try { return (await (deps.embedder as NonNullable<RecallDeps['embedder']>).embed([req.query]))[0]; }
    catch { notes.push('query embedding failed; lexical recall only'); return undefined; }
    finally { timings.embedMs = performance.now() - e0; }
  })() : Promise.resolve(undefined);
  if (cfg.vector.enabled && !deps.embedder) notes.push('no embedder configured; vector arm off');

  const l0 = performance.now();
  const { queryHits, lexical, hints } = store.read((db) => {
    const queryHits = cfg.lexical.enabled ? lexicalSearch(db, terms, filter, cfg) : new Map<string, LexicalHit>();
    return {
      queryHits,
      lexical: cfg.feedback.enabled ? feedbackLexical(db, queryHits, terms, filter, cfg) : queryHits,
      hints: cfg.hints.enabled ? hintSearch(db, terms, filter, cfg) : new Map<string, number>(),
    };
  });
  timings.lexicalMs = performance.now() - l0;

  const qvec = await embedding;
  const v0 = performance.now();
  let vectors = vectorsIn;
  const vecTop = new Map<string, number>();
  if (qvec && deps.embedder) {
    vectors ??= new VectorIndex(deps.embedder.id, deps.embedder.dims);
    const vi = vectors;
    store.read((db) => vi.sync(db));
    for (const [id, s] of vi.vectors.topK(qvec, cfg.topK * cfg.lexical.candidateFactor)) vecTop.set(id, Math.max(0, s));
  }
  timings.vectorMs = performance.now() - v0;
  const cosine = (id: string): number | undefined => (qvec && vectors ? vectors.vectors.cosine(id, qvec) : undefined);
  const bestCosine = Math.max(0, ...vecTop.values());
  const semanticScale = cfg.vector.normalise && bestCosine > 0 ? 1 / bestCosine : 1;

  const g0 = performance.now();
  const graph = store.read((db) => {
    const focal = cfg.traversal.enabled
      // Recall resolves focal entities from the query (signet-spec §2.6 step 10), not the project:
      // the project entity is a hub linked to every memory of the project.
      ? resolveFocalEntities(db, { queryTokens: terms, includePinned: cfg.traversal.includePinned, ...(req.checkpointEntityIds ? { checkpointEntityIds: req.checkpointEntityIds } : {}), ...(req.session !== undefined ? { sessionKey: req.session } : {}) })
      : undefined;
    const focalIds = focal && focal.source === 'query' ? specificEntities(db, focal.entityIds, cfg.traversal.minSpecificity) : focal?.entityIds ?? [];
    const trav = focalIds.length > 0 ? traverseKnowledgeGraph(db, focalIds, cfg.traversal) : undefined;
    const boost = cfg.graphBoost.enabled ? getGraphBoostIds(db, req.query, cfg.graphBoost, Date.now, projectWords) : undefined;
    return { focal, trav, boost };
  });
  if (graph.boost?.timedOut) notes.push('graph boost timed out; partial set used');
  if (graph.trav?.timedOut) notes.push('traversal timed out; partial set used');
  timings.graphMs = performance.now() - g0;

  const s0 = performance.now();
  // Fusion weight for the arms that actually ran: without a query vector the lexical channel gets
  // the full weight (keyword-only recall), without the lexical arm the semantic channel does.
  const shaping = { ...cfg, alpha: !qvec ? 0 : cfg.lexical.enabled ? cfg.alpha : 1 };
  const ids = [...new Set([...lexical.keys(), ...hints.keys(), ...vecTop.keys(), ...(graph.trav?.memoryScores.keys() ?? [])])];
  const rows = store.read((db) => hydrate(db, ids, filter));
  let cands: Candidate[] = [];
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
  }
  cands = sortByScore(cands);
  if (cfg.neighbours.enabled) {
    const head = cands.slice(0, cfg.neighbours.head).map((c) => c.id);
    const neighbours = store.read((db) => loadSessionNeighbours(db, head, cfg.neighbours.span, filter));
    cands = expandSessionNeighbours(cands, neighbours, cfg.neighbours, (id) => ({ lexical: 0, semantic: cfg.vector.enabled ? Math.max(0, cosine(id) ?? 0) : 0, hint: 0, traversal: 0 }));
  }
  if (graph.boost && graph.boost.memoryIds.size > 0) {
    for (const c of cands) {
      const w = graph.boost.weights.get(c.id);
      if (w !== undefined && w > 0) applyDelta(c, 'graphBoost', cfg.graphBoost.weight * w, w < 1 ? `linked to an entity named in the query (specificity × centrality ${w.toFixed(2)})` : 'linked to an entity named in the query');
    }
    cands = sortByScore(cands);
  }
  const now = deps.clock.now();
  cands = applyTemporalPrior(cands, req.query, now, hasTimeBounds(filter), cfg.temporalPrior);
  const reranker = deps.reranker ?? (qvec && vectors ? createEmbeddingReranker({ queryVector: qvec, vectorFor: (id) => vectors?.vectors.row(id) }) : undefined);
  const rr = await rerankHead(req.query, cands, reranker, cfg.rerank);
  if (rr.note) notes.push(rr.note);
  cands = rr.ranked;
  const width = limit * Math.max(1, req.overFetch ?? cfg.overFetch);
  const window = cands.slice(0, Math.max(width, cfg.topK) * 2);
  const ctx = store.read((db) => ({
    hub: cfg.dampening.hubEnabled ? loadHubInput(db, window.map((c) => c.id)) : undefined,
    states: cfg.currentness.enabled ? loadAttributeStates(db, window.map((c) => c.id)) : new Map(),
  }));
  cands = applyDampening(window, significantTokens(req.query), ctx.hub, cfg.dampening);
  cands = applyCurrentness(cands, ctx.states, req.query, cfg.currentness);
  cands = applyRecencyTieBreak(cands, now, cfg.recency);
  const facets = cfg.lexical.questionWords ? withoutQuestionWords(significantTokens(req.query)) : significantTokens(req.query);
  const facetWeights = cfg.facets.enabled && cfg.facets.idfWeighted && facets.length > 1 ? store.read((db) => termWeights(db, facets)) : undefined;
  cands = shapeByFacetCoverage(cands, facets, Math.max(width, cfg.topK), cfg.facets, facetWeights);
  for (const c of cands) c.explain.score = c.score;
  const results = selectResults(cands, limit, req.overFetch ?? cfg.overFetch, req.filter);
  timings.stagesMs = performance.now() - s0;
  timings.totalMs = performance.now() - t0;
  const lexicalIds = [...queryHits.entries()].sort((a, b) => b[1].score - a[1].score).map(([id]) => id).filter((id) => rows.has(id));
  return { results, lexicalIds, timings, notes };
}
