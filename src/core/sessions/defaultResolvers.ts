import type { ContradictionConfig } from '../config/extractionConfig';
import type { GraphConfig } from '../config/graphConfig';
import type { PropagateMemoryStatus } from '../feedback/sessionFeedback';
import { propagateMemoryStatus } from '../graph/propagateMemoryStatus';
import { resolveFocalEntities } from '../recall/focalEntities';
import type { FocalResolver } from './sessionStart';

/**
 * The session lifecycle's wiring to the recall and graph modules: focal resolution (checkpoint >
 * project > query > session key; pins are unioned in by the session module, agent-scoped) and
 * memory-status propagation after feedback.
 */
export const recallFocalResolver: FocalResolver = (db, options) => resolveFocalEntities(db, {
  sessionKey: options.sessionKey,
  includePinned: false,
  ...(options.project !== undefined ? { project: options.project } : {}),
  ...(options.queryTokens ? { queryTokens: options.queryTokens } : {}),
});

export function graphPropagator(graph: GraphConfig, contradiction: ContradictionConfig, newId: () => string): PropagateMemoryStatus {
  return (db, agentId, nowIso) => propagateMemoryStatus(db, { actor: 'feedback', reason: 'session end', nowIso, newId, agentId, config: graph, contradiction });
}
