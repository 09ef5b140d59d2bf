import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { deserializeModel, initialModel, serializeModel } from './logisticModel';
import type { PredictorModel } from './logisticModel';

/** Loads the agent's learned ranker (the untrained baseline-equivalent model when none is stored). */
export function loadPredictorModel(db: SqlReader, agentId: string): PredictorModel {
  const row = db.get<{ model: string }>('SELECT model FROM predictor_models WHERE agent_id = ?', [agentId]);
  if (!row) return initialModel();
  try {
    return deserializeModel(row.model);
  } catch {
    // weights of another feature set (older version): start again rather than rank with garbage
    return initialModel();
  }
}

export function savePredictorModel(db: SqlWriter, agentId: string, model: PredictorModel, nowIso: string): void {
  db.run(`INSERT INTO predictor_models (agent_id, model, sessions_trained, updated_at) VALUES (?, ?, ?, ?)
          ON CONFLICT(agent_id) DO UPDATE SET model = excluded.model, sessions_trained = excluded.sessions_trained, updated_at = excluded.updated_at`,
  [agentId, serializeModel(model), model.sessionsTrained, nowIso]);
}

/** Whether the predictor may order live candidates: enabled and trained on enough sessions. */
export function predictorIsLive(model: PredictorModel, cfg: { predictorEnabled: boolean; predictorMinSessions: number }): boolean {
  return cfg.predictorEnabled && model.sessionsTrained >= cfg.predictorMinSessions;
}
