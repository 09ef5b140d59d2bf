import type { FeedbackConfig } from '../config/feedbackConfig';
import type { SqlWriter } from '../store/storeTypes';
import { gatherSignals } from './candidateSignals';
import { featureVector } from './features';
import { predict, trainOnSession } from './logisticModel';
import type { TrainingSample } from './logisticModel';
import { loadPredictorModel, savePredictorModel } from './predictorStore';
import { compareSession } from './rankingComparison';
import type { RankedCandidate } from './rankingComparison';

/**
 * Session-end step of the learned ranker: compare the current model's ranking of
 * the session's candidates with the baseline (effective score) ranking, write the whole-session
 * and per-entity comparison rows, then train the model on the session's outcomes. The comparison
 * uses the model as it was before this session's outcomes were known.
 */
export interface PredictorSessionResult {
  readonly candidates: number;
  readonly paidOff: number;
  readonly comparisons: number;
  /** Whole-session outcome; undefined when nothing paid off (no comparison is possible). */
  readonly won: boolean | undefined;
  readonly margin: number | undefined;
  readonly sessionsTrained: number;
}

export const COMPARISON_METRIC = 'mrr';

interface SessionRow { memory_id: string; effective_score: number | null; final_score: number; rank: number; fts_hit_count: number; relevance_score: number | null; was_injected: number }

export function runPredictorComparison(db: SqlWriter, options: {
  sessionKey: string;
  agentId: string;
  project: string | null;
  sessionStartedAt: string;
  nowMs: number;
  config: FeedbackConfig;
  newId: () => string;
}): PredictorSessionResult {
  const none: PredictorSessionResult = { candidates: 0, paidOff: 0, comparisons: 0, won: undefined, margin: undefined, sessionsTrained: 0 };
  const rows = db.all<SessionRow>(
    'SELECT memory_id, effective_score, final_score, rank, fts_hit_count, relevance_score, was_injected FROM session_memories WHERE session_key = ? AND agent_id = ? ORDER BY rank, memory_id',
    [options.sessionKey, options.agentId]);
  const model = loadPredictorModel(db, options.agentId);
  if (!rows.length) return { ...none, sessionsTrained: model.sessionsTrained };
  const baseline = (r: SessionRow): number => r.effective_score ?? r.final_score;
  const ordered = [...rows].sort((a, b) => baseline(b) - baseline(a) || a.rank - b.rank);
  const signals = gatherSignals(db, {
    agentId: options.agentId,
    memoryIds: rows.map((r) => r.memory_id),
    fusedScores: new Map(rows.map((r) => [r.memory_id, baseline(r)])),
    nowMs: Date.parse(options.sessionStartedAt),
    excludeSessionKey: options.sessionKey,
    beforeIso: options.sessionStartedAt,
    paidOffRelevance: options.config.paidOffRelevance,
  });
  const cands: (RankedCandidate & { features: number[]; pinned: boolean; injected: boolean; fts: number })[] = ordered.map((r, i) => {
    const s = signals.get(r.memory_id);
    const features = s ? featureVector(s.signals) : featureVector({ fusedScore: baseline(r), ageDays: 0, accessCount: 0, importance: 0, aspectWeights: [], linkedToPinned: false, pastRelevance: undefined });
    return {
      memoryId: r.memory_id,
      baselineRank: i,
      predictorScore: predict(model, features),
      paidOff: r.fts_hit_count > 0 || (r.relevance_score ?? 0) >= options.config.paidOffRelevance,
      entityIds: s?.entityIds ?? [],
      features,
      pinned: s?.signals.linkedToPinned ?? false,
      injected: r.was_injected !== 0,
      fts: r.fts_hit_count,
    };
  });
  const slices = compareSession(cands);
  const injected = cands.filter((c) => c.injected);
  const ftsOverlap = injected.length ? injected.filter((c) => c.fts > 0).length / injected.length : null;
  const relevance = JSON.stringify(Object.fromEntries(rows.filter((r) => r.relevance_score !== null).map((r) => [r.memory_id, r.relevance_score])));
  const names = new Map<string, string>();
  for (const s of slices) {
    if (s.entityId && !names.has(s.entityId)) names.set(s.entityId, db.get<{ name: string }>('SELECT name FROM entities WHERE id = ?', [s.entityId])?.name ?? s.entityId);
  }
  const nowIso = new Date(options.nowMs).toISOString();
  for (const s of slices) {
    db.run(`INSERT INTO predictor_comparisons (id, session_key, agent_id, predictor_ndcg, baseline_ndcg, predictor_won, margin, focal_entity_id, focal_entity_name, project,
              candidate_count, scorer_confidence, predictor_top_ids, baseline_top_ids, relevance_scores, fts_overlap_score, metric, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [options.newId(), options.sessionKey, options.agentId, s.predictorMrr, s.baselineMrr, s.won ? 1 : 0, s.margin, s.entityId ?? null, s.entityId ? names.get(s.entityId) ?? null : null,
      options.project, s.candidateCount, Math.min(1, model.sessionsTrained / options.config.predictorMinSessions), JSON.stringify(s.predictorTopIds), JSON.stringify(s.baselineTopIds),
      relevance, ftsOverlap, COMPARISON_METRIC, nowIso]);
  }
  const samples: TrainingSample[] = cands.map((c) => ({ features: c.features, label: c.paidOff ? 1 : c.pinned ? options.config.predictorPinLabel : 0 }));
  const trained = trainOnSession(model, samples, options.config.predictorLearningRate, options.config.predictorL2);
  savePredictorModel(db, options.agentId, trained, nowIso);
  const whole = slices.find((s) => s.entityId === undefined);
  return { candidates: cands.length, paidOff: cands.filter((c) => c.paidOff).length, comparisons: slices.length, won: whole?.won, margin: whole?.margin, sessionsTrained: trained.sessionsTrained };
}
