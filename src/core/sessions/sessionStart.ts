import type { Clock } from '../clock';
import type { FeedbackConfig } from '../config/feedbackConfig';
import type { SessionConfig } from '../config/sessionConfig';
import type { MemoryStore, SqlReader } from '../store/storeTypes';
import { unionPinnedFocal } from '../pinning/pinnedFocal';
import type { FocalEntities, ResolvedFocal } from '../pinning/pinnedFocal';
import { gatherSignals } from '../predictor/candidateSignals';
import { featureVector } from '../predictor/features';
import { predict } from '../predictor/logisticModel';
import { loadPredictorModel, predictorIsLive } from '../predictor/predictorStore';
import { gatherCandidates, orderCandidates, recordSessionCandidates, selectWithinBudget } from './sessionCandidates';
import { insertSession } from './sessionRecords';

/** Focal entity resolution without pins (the recall module's resolveFocalEntities with includePinned false). */
export type FocalResolver = (db: SqlReader, options: { project?: string; sessionKey: string; queryTokens?: readonly string[] }) => ResolvedFocal;

export interface InjectedCandidate {
  readonly id: string;
  readonly content: string;
  readonly score: number;
  readonly source: string;
}

interface StartDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly session: SessionConfig;
  readonly feedback: FeedbackConfig;
  readonly agentId: string;
  readonly resolveFocal?: FocalResolver;
}

/**
 * Session start: focal entities (pins always included), candidates by effective score (or by the
 * learned ranker when it is live), injection within the token budget, every candidate recorded.
 * For an existing session the earlier injection is returned unchanged (dedup). `record: false`
 * computes the same injection and writes nothing (a preview).
 */
export async function buildSessionStart(deps: StartDeps, req: { sessionKey: string; project: string | null; harness: string | null; query: string | undefined; existing: boolean; record?: boolean }): Promise<{ injected: InjectedCandidate[]; candidateCount: number; focal: FocalEntities; predictorLive: boolean }> {
  const { store, agentId } = deps;
  const nowMs = deps.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  const focal = store.read((db) => unionPinnedFocal(db, agentId, deps.resolveFocal
    ? deps.resolveFocal(db, { sessionKey: req.sessionKey, ...(req.project !== null ? { project: req.project } : {}), ...(req.query ? { queryTokens: [req.query] } : {}) })
    : { entityIds: [], entityNames: [], source: req.project !== null ? 'project' : 'query' }));
  if (req.existing) {
    const rows = store.read((db) => db.all<{ id: string; content: string; score: number; source: string; n: number }>(
      `SELECT m.id, m.content, sm.final_score AS score, sm.source, (SELECT COUNT(*) FROM session_memories x WHERE x.session_key = sm.session_key) AS n
       FROM session_memories sm JOIN memories m ON m.id = sm.memory_id WHERE sm.session_key = ? AND sm.agent_id = ? AND sm.was_injected = 1 ORDER BY sm.rank`, [req.sessionKey, agentId]));
    return { injected: rows.map((r) => ({ id: r.id, content: r.content, score: r.score, source: r.source })), candidateCount: rows[0]?.n ?? 0, focal, predictorLive: false };
  }
  const { ordered, live } = store.read((db) => {
    let cands = gatherCandidates(db, { agentId, project: req.project, focalEntityIds: focal.entityIds, pinnedEntityIds: focal.pinnedEntityIds, nowMs, config: deps.session });
    const model = loadPredictorModel(db, agentId);
    const isLive = predictorIsLive(model, deps.feedback) && cands.length > 0;
    if (isLive) {
      const signals = gatherSignals(db, { agentId, memoryIds: cands.map((c) => c.memoryId), fusedScores: new Map(cands.map((c) => [c.memoryId, c.effectiveScore])), nowMs, excludeSessionKey: req.sessionKey, beforeIso: nowIso, paidOffRelevance: deps.feedback.paidOffRelevance });
      for (const c of cands) {
        const s = signals.get(c.memoryId);
        if (!s) continue;
        c.predictorScore = predict(model, featureVector(s.signals));
        c.finalScore = c.predictorScore;
      }
      cands = orderCandidates(cands);
    }
    return { ordered: cands, live: isLive };
  });
  const injectedIds = selectWithinBudget(ordered, deps.session.maxInjectTokens);
  if (req.record !== false) await store.write('session-start', (db) => {
    insertSession(db, { sessionKey: req.sessionKey, agentId, project: req.project, harness: req.harness, nowIso, focalEntityIds: focal.entityIds });
    recordSessionCandidates(db, { sessionKey: req.sessionKey, agentId, ordered, injected: injectedIds, nowIso });
  });
  const injected = ordered.filter((c) => injectedIds.has(c.memoryId)).map((c) => ({ id: c.memoryId, content: c.content, score: c.finalScore, source: c.source }));
  return { injected, candidateCount: ordered.length, focal, predictorLive: live };
}

/** The injected block for a prompt. */
export function formatInjection(injected: readonly InjectedCandidate[]): string {
  if (!injected.length) return '';
  return [`## Relevant Memories (auto-loaded | scored by importance x recency | ${injected.length} results)`, ...injected.map((m) => `- ${m.content.replace(/\s+/g, ' ').trim()}`)].join('\n');
}
