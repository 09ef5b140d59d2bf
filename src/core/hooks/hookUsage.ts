import type { TranscriptTurn } from '../capture/transcriptTypes';
import type { SqlWriter } from '../store/storeTypes';

/**
 * "Used" evidence for hook sessions (docs/agents.md, "Learning from what agents used"): with a
 * hook the transcript shows what the agent did after an injection, so a memory counts as used
 * when its distinctive content — identifiers, values, versions, paths, names — shows up in the
 * agent's later output or tool inputs (never in the user's words or in tool output, which the
 * agent did not write). Injected memories with distinctive content that never shows up are
 * evidence against. This replaces, for hook sessions, the self-confirming signal (recall's own
 * lexical hits and the transcript-overlap proxy) as the feedback loop's paid-off signal.
 */
const TOKEN = /[\p{L}\p{N}_][\p{L}\p{N}_.\-/@:#+]*[\p{L}\p{N}_+#]|[\p{N}]/gu;
const COMMON = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'when', 'then', 'than', 'always', 'never', 'must', 'should', 'use', 'using', 'prefer', 'decided', 'because', 'instead', 'over', 'we', 'our', 'all', 'are', 'not', 'only', 'new', 'old', 'will', 'each', 'every', 'before', 'after']);

/** Every token of a text, lower-cased (the shapes distinctiveTokens looks at). */
export function textTokens(text: string): Set<string> {
  return new Set([...text.matchAll(TOKEN)].map((m) => m[0].toLowerCase()));
}

/** Tokens of a memory specific enough that their reappearance means the memory was used. */
export function distinctiveTokens(content: string): Set<string> {
  const out = new Set<string>();
  const words = [...content.matchAll(TOKEN)].map((m) => m[0]);
  words.forEach((w, i) => {
    const lower = w.toLowerCase();
    if (COMMON.has(lower) || w.length < 2) return;
    const code = /[._/@:#+-]/.test(w) && /[\p{L}]/u.test(w);
    const digits = /\d/.test(w) && w.length >= 2;
    const mixed = /[a-z][A-Z]|[A-Z]{2,}/.test(w);
    const name = i > 0 && /^[A-Z][a-z]{2,}/.test(w);
    if (code || digits || mixed || name) out.add(lower);
  });
  return out;
}

export interface UsageVerdict {
  readonly memoryId: string;
  /** Distinctive tokens found in the agent's later output or tool inputs. */
  readonly hits: number;
  readonly distinctive: number;
  readonly used: boolean;
}

/** The agent's own later words: assistant text and tool inputs (tool_use lines), not tool results. */
export function agentWrittenText(turns: readonly TranscriptTurn[]): string {
  return turns.filter((t) => t.role === 'assistant' || (t.role === 'tool' && t.toolName !== undefined && t.text.startsWith(`${t.toolName} `) && /^\S+ [{[]/.test(t.text)))
    .map((t) => t.text).join('\n').toLowerCase();
}

/**
 * Which injected memories the agent used. A memory is used when at least min(2, its distinctive
 * token count) of its distinctive tokens appear; a memory with no distinctive token gives no
 * evidence either way (left out).
 */
export function usageVerdicts(injected: readonly { readonly id: string; readonly content: string }[], agentText: string): UsageVerdict[] {
  const out: UsageVerdict[] = [];
  const hay = agentText.toLowerCase();
  for (const m of injected) {
    const tokens = distinctiveTokens(m.content);
    if (!tokens.size) continue;
    let hits = 0;
    for (const t of tokens) if (hay.includes(t)) hits++;
    out.push({ memoryId: m.id, hits, distinctive: tokens.size, used: hits >= Math.min(2, tokens.size) });
  }
  return out;
}

/**
 * Writes the evidence onto the session's injected rows: fts_hit_count (the paid-off count the
 * aspect feedback and the predictor read) and relevance_score 1 / 0, kept at their maxima across
 * checkpoints (once used, used). Returns the rows updated.
 */
export function writeUsageEvidence(db: SqlWriter, sessionKey: string, agentId: string, verdicts: readonly UsageVerdict[]): number {
  let n = 0;
  for (const v of verdicts) {
    n += db.run(`UPDATE session_memories SET fts_hit_count = MAX(fts_hit_count, ?), relevance_score = MAX(COALESCE(relevance_score, 0), ?)
                 WHERE session_key = ? AND agent_id = ? AND memory_id = ? AND was_injected = 1`, [v.used ? v.hits : 0, v.used ? 1 : 0, sessionKey, agentId, v.memoryId]).changes;
  }
  return n;
}

/**
 * Marks an active hook session's end so its end processing skips the transcript capture (agent
 * capture already ran, through the junk guards) and the continuity proxy (which would overwrite
 * the usage evidence with transcript overlap), and writes the session score from the evidence.
 */
export function checkpointHookSession(db: SqlWriter, sessionKey: string, agentId: string, nowIso: string): { used: number; injected: number } {
  const r = db.get<{ injected: number; used: number }>(
    'SELECT COUNT(*) AS injected, COALESCE(SUM(fts_hit_count > 0), 0) AS used FROM session_memories WHERE session_key = ? AND agent_id = ? AND was_injected = 1', [sessionKey, agentId]) ?? { injected: 0, used: 0 };
  const s = db.get<{ project: string | null; harness: string | null }>("SELECT project, harness FROM sessions WHERE session_key = ? AND status = 'active'", [sessionKey]);
  if (!s) return r;
  const score = r.injected ? r.used / r.injected : 0;
  const reasoning = `hook session: ${r.used} of ${r.injected} injected memories used in the agent's output or tool inputs`;
  db.run(`INSERT INTO session_scores (id, session_key, project, harness, score, memories_recalled, memories_used, novel_context_count, reasoning, confidence, continuity_reasoning, method, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, 1, ?, 'usage', ?)
          ON CONFLICT(id) DO UPDATE SET score = excluded.score, memories_recalled = excluded.memories_recalled, memories_used = excluded.memories_used, reasoning = excluded.reasoning, continuity_reasoning = excluded.continuity_reasoning, created_at = excluded.created_at`,
  [`usage:${sessionKey}`, sessionKey, s.project, s.harness, score, r.injected, r.used, reasoning, reasoning, nowIso]);
  db.run("UPDATE sessions SET end_step = 'continuity', summary = COALESCE(summary, ?), updated_at = ? WHERE session_key = ? AND status = 'active'", [reasoning, nowIso, sessionKey]);
  return r;
}
