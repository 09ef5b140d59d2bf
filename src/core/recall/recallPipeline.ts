/**
 * The recall pipeline: candidate gathering (recallCandidates.ts: arms, graph lookups, hydration
 * with the filter, fusion and evidence shaping), then the stages after fusion as data
 * (recallStages.ts, in order: graph boost, temporal prior, rerank of the head, window, dampening,
 * currentness, recency tie-break, facet coverage), then over-fetch + filter hook → render width.
 * Reads only; recallService.ts says what to record. docs/recall-design.md describes each stage.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { MemoryStore } from '../store/storeTypes';
import { selectResults } from './overFetch';
import { gatherCandidates } from './recallCandidates';
import type { RecallTimings } from './recallCandidates';
import type { RecallDeps, RecallRequest } from './recallRequest';
import { RECALL_STAGES, runStages } from './recallStages';
import type { RecallStage } from './recallStages';
import { recallAuthors } from './speakerMatch';
import type { Candidate } from './recallTypes';
import type { VectorIndex } from './vectorIndex';

export type { RecallTimings } from './recallCandidates';

export interface RankedRecall {
  readonly results: Candidate[];
  /** Lexical-arm hits (for fts_hit_count), best first. */
  readonly lexicalIds: string[];
  readonly timings: RecallTimings;
  readonly notes: string[];
  /** Ids of the stages that ran, in order (recallStages.ts). */
  readonly stages: string[];
}

export async function rankRecall(store: MemoryStore, req: RecallRequest, deps: RecallDeps, cfg: SearchConfig, vectorsIn: VectorIndex | undefined, stages: readonly RecallStage[] = RECALL_STAGES): Promise<RankedRecall> {
  const t0 = performance.now();
  const limit = req.limit ?? cfg.limit;
  const gathered = await gatherCandidates(store, req, deps, cfg, vectorsIn);
  const { timings, notes } = gathered;
  const ctx = { store, req, deps, cfg, gathered, now: deps.clock.now(), width: limit * Math.max(1, req.overFetch ?? cfg.overFetch), notes, authorsOf: recallAuthors(gathered.authors) };
  const { candidates, ran } = await runStages(stages, gathered.candidates, ctx);
  for (const c of candidates) c.explain.score = c.score;
  const results = selectResults(candidates, limit, req.overFetch ?? cfg.overFetch, req.filter);
  timings.stagesMs = performance.now() - gathered.fusionStartedAt;
  timings.totalMs = performance.now() - t0;
  return { results, lexicalIds: gathered.lexicalIds, timings, notes, stages: ran };
}
