import { isoFromMs } from '../clock';
import { harnessCaptureOn } from '../config/agentsConfig';
import type { AgentsConfig } from '../config/agentsConfig';
import type { CaptureConfig } from '../config/captureConfig';
import type { ExtractionConfig } from '../config/extractionConfig';
import { redactSecrets } from '../memory/redaction';
import { rememberInTransaction } from '../memory/remember';
import type { RememberDeps } from '../memory/remember';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import type { AgentActivity, AgentCaptureInput, AgentCaptureReport, CapturedMemory, SkipReason } from './agentCaptureTypes';
import { contentWords, cueStatements, instructionSentences, jaccard, pathExcluded, statementJunk, stripContext, turnJunk } from './agentJunkGuards';
import { nameKey } from '../extraction/contract';
import { HEURISTIC_IMPORTANCE } from '../extraction/heuristicExtractor';
import { noteActivity, readActivity, readAgentSession, writeAgentSession } from './agentSessionLedger';
import { memorableStatements, proseOf } from './memorableTurns';
import { projectFromCwd } from './transcriptTypes';

/**
 * Agent capture (docs/agents.md): turns of an agent session, from a hook's transcript or VS Code's
 * chat history, become memories only through the junk guards (agentJunkGuards.ts) and the write
 * path (redaction, dedup, jobs). Each memory carries its provenance: source type `agent_capture`,
 * source id `agent:<session id>:<turn key>:<n>`, session key `agent:<session id>`, tags
 * `captured` and `harness-<harness>`. One transaction per call, so a capture is all or nothing.
 */
export const AGENT_CAPTURE_SOURCE_TYPE = 'agent_capture';
export const AGENT_SESSION_KEY_PREFIX = 'agent:';
export const HARNESS_TAG_PREFIX = 'harness-';
/** A statement at least this similar (word Jaccard) to a stored memory confirms it instead of adding one. */
export const NEAR_DUPLICATE_JACCARD = 0.8;

export interface AgentCaptureDeps {
  readonly remember: RememberDeps;
  readonly capture: CaptureConfig;
  readonly agents: AgentsConfig;
  readonly extraction?: ExtractionConfig;
  readonly agentId?: string;
}

/** The session key memories and session rows of an agent session carry. */
export function agentSessionKeyOf(sessionId: string): string {
  return `${AGENT_SESSION_KEY_PREFIX}${sessionId}`;
}

function nearDuplicate(db: SqlReader, statement: string, agentId: string): string | undefined {
  const words = contentWords(statement);
  const terms = [...words].filter((w) => /^[\p{L}\p{N}_]+$/u.test(w) && w.length > 2).slice(0, 12);
  if (terms.length < 2) return undefined;
  const match = terms.map((t) => `"${t}"`).join(' OR ');
  const rows = db.all<{ id: string; content: string }>(
    `SELECT m.id AS id, m.content AS content FROM memories_fts f JOIN memories m ON m.rowid = f.rowid
     WHERE memories_fts MATCH ? AND m.is_deleted = 0 AND m.agent_id = ? ORDER BY f.rank LIMIT 8`, [match, agentId]);
  for (const r of rows) {
    const stored = contentWords(r.content);
    if ((jaccard(words, stored) >= NEAR_DUPLICATE_JACCARD && !changesValue(words, stored)) || restates(words, stored)) return r.id;
  }
  return undefined;
}

/** Words that mark a restatement ("just to repeat: …", "again, …") and say nothing of the subject. */
const RESTATEMENT_FILLER = new Set(['just', 'repeat', 'repeating', 'again', 'reminder', 'remind', 'recap', 'note', 'clear', 'said', 'says', 'uses', 'using', 'still', 'once', 'more', 'also', 'as']);

/**
 * A restatement of a stored memory: at least four subject words, and none beyond the memory's —
 * a new number, name or value makes it a different statement (an update, which supersession
 * handles), never a confirmation.
 */
function restates(words: ReadonlySet<string>, stored: ReadonlySet<string>): boolean {
  const subject = [...words].filter((w) => !RESTATEMENT_FILLER.has(w));
  return subject.length >= 4 && subject.every((w) => stored.has(w));
}

/** One side has a number the other lacks ("120 kB" → "150 kB"): an update, however similar the rest. */
function changesValue(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const w of a) if (/\d/.test(w) && !b.has(w)) return true;
  for (const w of b) if (/\d/.test(w) && !a.has(w)) return true;
  return false;
}

/** Runs the whole guarded capture inside the caller's transaction. */
export function captureTurnsInTransaction(db: SqlWriter, input: AgentCaptureInput, deps: AgentCaptureDeps): AgentCaptureReport {
  const agentId = deps.agentId ?? 'default';
  const skipped: Partial<Record<SkipReason, number>> = {};
  const skip = (r: SkipReason, n = 1): void => { if (n > 0) skipped[r] = (skipped[r] ?? 0) + n; };
  const memoryIds: string[] = [];
  const confirmedIds: string[] = [];
  const base = { harness: input.harness, sessionId: input.sessionId, turns: input.turns.length };
  const done = (newTurns: number): AgentCaptureReport => ({ ...base, newTurns, stored: memoryIds.length, confirmed: confirmedIds.length, skipped, memoryIds, confirmedIds });
  const ledger = readAgentSession(db, input.sessionId);
  const seen = new Set(ledger.turns);
  const fresh = input.turns.filter((t) => !seen.has(t.key));
  skip('already-seen', input.turns.length - fresh.length);
  if (!fresh.length) return done(0);
  // The privacy gates skip the turns without marking them read: switching capture back on later
  // must not capture what was said while it was off, so they are marked read all the same.
  const gate: SkipReason | undefined = input.trusted === false ? 'untrusted'
    : !harnessCaptureOn(deps.agents, input.harness) ? 'harness-off'
      : pathExcluded(input.workspace, deps.agents.excludePaths) ? 'excluded-path' : undefined;
  const nowIso = isoFromMs(deps.remember.clock.now());
  if (!ledger.harnesses.includes(input.harness)) ledger.harnesses.push(input.harness);
  if (gate) {
    skip(gate, fresh.length);
    ledger.turns.push(...fresh.map((t) => t.key));
    writeAgentSession(db, ledger);
    return done(fresh.length);
  }
  const project = input.project ?? projectFromCwd(input.workspace);
  const sessionKey = agentSessionKeyOf(input.sessionId);
  const injected = ledger.injected.map((m) => contentWords(m.content));
  const instructions = instructionSentences(input.instructionTexts ?? []);
  for (const turn of fresh) {
    ledger.turns.push(turn.key);
    // redaction first: no guard, extractor or log line sees a secret
    const text = stripContext(redactSecrets(turn.text, deps.remember.redaction).text);
    const junk = turnJunk(turn.role, text);
    if (junk) { skip(junk); continue; }
    if (turn.role === 'tool') continue;
    const prose = proseOf(text);
    if (!prose.trim()) { skip('code'); continue; }
    const statements = [...memorableStatements({ format: 'jsonl', sessionId: input.sessionId, turns: [{ ...turn, text: prose }] }, deps.capture, deps.extraction)];
    if (turn.role === 'user') {
      // sentences already covered by an extracted statement are not added twice
      const covered = statements.map((s) => nameKey(s.content));
      for (const c of cueStatements(prose)) {
        const key = nameKey(c.content);
        if (covered.some((k) => k.includes(key) || key.includes(k))) continue;
        covered.push(key);
        statements.push({ content: c.content, type: c.type, importance: HEURISTIC_IMPORTANCE[c.type], turnKey: turn.key, index: statements.length, role: 'user' });
      }
    }
    if (!statements.length) { skip('no-statement'); continue; }
    for (const s of statements) {
      const why = statementJunk(s.content, { injected, instructionSentences: instructions });
      if (why) { skip(why); continue; }
      const near = nearDuplicate(db, s.content, agentId);
      if (near) { confirm(db, near, nowIso); confirmedIds.push(near); continue; }
      const r = rememberInTransaction(db, {
        content: s.content, type: s.type, importance: s.importance, sourceType: AGENT_CAPTURE_SOURCE_TYPE,
        sourceId: `${sessionKey}:${turn.key}:${s.index}`, sessionKey, agentId,
        tags: ['captured', `${HARNESS_TAG_PREFIX}${input.harness}`], who: s.role === 'user' ? 'user' : input.harness,
        why: `said in a ${input.harness} session (turn ${turn.key})`, ...(project ? { project } : {}),
      }, deps.remember);
      if (r.duplicate) { confirm(db, r.id, nowIso); confirmedIds.push(r.id); } else memoryIds.push(...r.chunkIds);
    }
  }
  ledger.lastCaptureAt = nowIso;
  writeAgentSession(db, ledger);
  noteActivity(db, input.harness, 'capture', nowIso);
  return done(fresh.length);
}

/** A repeated statement confirms the memory: it counts as one more access (metadata only). */
function confirm(db: SqlWriter, id: string, nowIso: string): void {
  db.run('UPDATE memories SET access_count = access_count + 1, last_accessed = ? WHERE id = ?', [nowIso, id]);
}

interface CaptureRow { id: string; content: string; tags: string | null; session_key: string | null; source_id: string | null; created_at: string; project: string | null; is_deleted: number; superseded: number }

function harnessOf(tags: string | null): string {
  const t = (tags ?? '').split(',').find((x) => x.startsWith(HARNESS_TAG_PREFIX));
  return t ? t.slice(HARNESS_TAG_PREFIX.length) : 'unknown';
}

function toCaptured(r: CaptureRow): CapturedMemory {
  const sessionId = (r.session_key ?? '').startsWith(AGENT_SESSION_KEY_PREFIX) ? (r.session_key as string).slice(AGENT_SESSION_KEY_PREFIX.length) : (r.session_key ?? '');
  const prefix = `${r.session_key ?? ''}:`;
  const rest = (r.source_id ?? '').startsWith(prefix) ? (r.source_id as string).slice(prefix.length) : '';
  const turnKey = rest.replace(/:\d+$/, '');
  return {
    id: r.id, content: r.content, harness: harnessOf(r.tags), sessionId, turnKey, capturedAt: r.created_at,
    ...(r.project ? { project: r.project } : {}), status: r.is_deleted ? 'forgotten' : r.superseded ? 'superseded' : 'active',
  };
}

/** The latest captured memories, newest first (forgotten ones included, marked). */
export function recentCaptures(db: SqlReader, limit: number, agentId = 'default'): CapturedMemory[] {
  const hasGraph = db.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'entity_attributes'")?.n ?? 0;
  const superseded = hasGraph
    ? "EXISTS (SELECT 1 FROM entity_attributes a WHERE a.memory_id = m.id AND a.status = 'superseded') AND NOT EXISTS (SELECT 1 FROM entity_attributes a WHERE a.memory_id = m.id AND a.status = 'active')"
    : '0';
  return db.all<CaptureRow>(
    `SELECT m.id, m.content, m.tags, m.session_key, m.source_id, m.created_at, m.project, m.is_deleted, ${superseded} AS superseded
     FROM memories m WHERE m.source_type = ? AND m.agent_id = ? ORDER BY m.created_at DESC, m.rowid DESC LIMIT ?`,
    [AGENT_CAPTURE_SOURCE_TYPE, agentId, Math.max(1, Math.min(1_000, Math.round(limit)))]).map(toCaptured);
}

/** Per harness: last injection, last capture, memories captured today (since local midnight) and in all. */
export function agentActivity(db: SqlReader, nowMs: number, agentId = 'default'): AgentActivity[] {
  const midnight = new Date(nowMs);
  midnight.setHours(0, 0, 0, 0);
  const since = midnight.toISOString();
  const counts = new Map<string, { today: number; total: number }>();
  for (const r of db.all<{ tags: string | null; created_at: string }>('SELECT tags, created_at FROM memories WHERE source_type = ? AND agent_id = ? AND is_deleted = 0', [AGENT_CAPTURE_SOURCE_TYPE, agentId])) {
    const h = harnessOf(r.tags);
    const c = counts.get(h) ?? { today: 0, total: 0 };
    c.total++;
    if (r.created_at >= since) c.today++;
    counts.set(h, c);
  }
  const activity = readActivity(db);
  const harnesses = [...new Set([...activity.keys(), ...counts.keys()])].sort();
  return harnesses.map((h) => {
    const a = activity.get(h) ?? {};
    const c = counts.get(h) ?? { today: 0, total: 0 };
    return { harness: h, ...(a.lastInjectionAt ? { lastInjectionAt: a.lastInjectionAt } : {}), ...(a.lastCaptureAt ? { lastCaptureAt: a.lastCaptureAt } : {}), capturedToday: c.today, capturedTotal: c.total };
  });
}
