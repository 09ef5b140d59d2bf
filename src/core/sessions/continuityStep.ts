import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import type { SessionConfig } from '../config/sessionConfig';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { buildContinuityPrompt, parseContinuityResponse } from './continuityScore';
import type { ContinuityResult, InjectedMemory } from './continuityScore';
import { proxyContinuity } from './continuityProxy';
import { userMessage } from '../errors';

/** Injected memories of a session, by rank. */
export function loadInjectedMemories(db: SqlReader, sessionKey: string, agentId: string, limit: number): InjectedMemory[] {
  return db.all<{ id: string; content: string; score: number }>(
    `SELECT m.id AS id, m.content AS content, COALESCE(sm.final_score, 0) AS score FROM session_memories sm JOIN memories m ON m.id = sm.memory_id
     WHERE sm.session_key = ? AND sm.agent_id = ? AND sm.was_injected = 1 ORDER BY sm.rank, sm.memory_id LIMIT ?`,
    [sessionKey, agentId, limit]).map((r) => ({ id: r.id, content: r.content, score: r.score }));
}

/**
 * Scores the session with the LLM when there is one; without one (or when its answer is unusable)
 * with the deterministic proxy, whose reasoning says why.
 */
export async function scoreContinuity(injected: readonly InjectedMemory[], summary: string, transcript: string, deps: { llm: LlmClient | undefined; config: SessionConfig; logger: Logger }): Promise<ContinuityResult> {
  if (deps.llm) {
    try {
      const prompt = buildContinuityPrompt(injected, summary, transcript, deps.config.continuityTranscriptChars);
      const answer = await deps.llm.complete(prompt, { timeoutMs: deps.config.llmTimeoutMs });
      const parsed = parseContinuityResponse(answer, injected.map((m) => m.id));
      if (parsed) return parsed;
      deps.logger.warn('continuity scoring: the LLM answer had no numeric score; using the overlap proxy');
      const p = proxyContinuity(injected, transcript);
      return { ...p, reasoning: `${p.reasoning} (LLM answer unusable)` };
    } catch (e) {
      deps.logger.warn(`continuity scoring: LLM failed (${userMessage(e)}); using the overlap proxy`);
      const p = proxyContinuity(injected, transcript);
      return { ...p, reasoning: `${p.reasoning} (LLM failed)` };
    }
  }
  return proxyContinuity(injected, transcript);
}

/** Writes relevance_score per memory and one session_scores row (always, even with no candidates). */
export function writeContinuity(db: SqlWriter, options: { sessionKey: string; agentId: string; project: string | null; harness: string | null; injectedCount: number; result: ContinuityResult; nowIso: string; id: string }): void {
  const r = options.result;
  for (const [memoryId, relevance] of [...r.perMemory.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    db.run('UPDATE session_memories SET relevance_score = ? WHERE session_key = ? AND agent_id = ? AND memory_id = ?', [relevance, options.sessionKey, options.agentId, memoryId]);
  }
  db.run(`INSERT INTO session_scores (id, session_key, project, harness, score, memories_recalled, memories_used, novel_context_count, reasoning, confidence, continuity_reasoning, method, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  [options.id, options.sessionKey, options.project, options.harness, r.score, options.injectedCount, r.memoriesUsed, r.novelContextCount, r.reasoning, r.confidence, r.reasoning, r.method, options.nowIso]);
}
