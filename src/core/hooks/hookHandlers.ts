import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { agentSessionKeyOf } from '../capture/agentCapture';
import type { AgentCaptureReport } from '../capture/agentCaptureTypes';
import { INJECTION_MARKER } from '../capture/agentJunkGuards';
import { readAgentSession } from '../capture/agentSessionLedger';
import { projectFromCwd } from '../capture/transcriptTypes';
import type { MemoryEngine } from '../engine/memoryEngine';
import { estimateTokens } from '../sessions/sessionCandidates';
import { getSession } from '../sessions/sessionRecords';
import type { MemoryStore } from '../store/storeTypes';
import { contextOutput } from './hookEvent';
import type { HookEvent } from './hookEvent';
import { readCursor, readNewTurns, writeCursor } from './hookTranscript';
import { agentWrittenText, checkpointHookSession, usageVerdicts, writeUsageEvidence } from './hookUsage';

/**
 * What `agent-memory hook` does per event (docs/agents.md): SessionStart injects the session-start
 * memories within agents.sessionStartTokens; UserPromptSubmit injects what recall finds above
 * agents.relevanceBar, never a memory twice per session, nothing when nothing is relevant;
 * Stop / SubagentStop / PreCompact / SessionEnd capture the transcript's new turns through agent
 * capture, write the "used" evidence, and checkpoint (or, at SessionEnd, end) the session so the
 * feedback loop runs. Other events are accepted and do nothing.
 */
export interface HookResult {
  /** JSON for stdout, or undefined for no output. */
  readonly output: Record<string, unknown> | undefined;
  /** One line for the hook log. */
  readonly note: string;
  readonly capture?: AgentCaptureReport;
  readonly injectedIds?: readonly string[];
}

/** Most recall results a prompt injection considers. */
export const PROMPT_RECALL_LIMIT = 8;
const AGENT = 'default';

function wrap(lines: readonly string[], heading: string): string {
  return [`<agent-memory>`, `${INJECTION_MARKER} ${heading}`, ...lines, `</agent-memory>`].join('\n');
}

const day = (iso: string | undefined): string => (iso ? iso.slice(0, 10) : 'undated');

/** The instruction files in force in `cwd` (restating them is junk; docs/agents.md). */
export function instructionTexts(cwd: string | undefined): string[] {
  if (!cwd) return [];
  const files = ['AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md', '.github/copilot-instructions.md', 'GEMINI.md'].map((f) => join(cwd, f));
  const dir = join(cwd, '.github', 'instructions');
  try {
    if (existsSync(dir)) for (const f of readdirSync(dir)) if (f.endsWith('.instructions.md')) files.push(join(dir, f));
  } catch { /* unreadable folder: no instructions from it */ }
  const out: string[] = [];
  for (const f of files) {
    try {
      if (existsSync(f) && statSync(f).size <= 256 * 1024) out.push(readFileSync(f, 'utf8'));
    } catch { /* skip */ }
  }
  return out;
}

async function ensureSession(engine: MemoryEngine<MemoryStore>, e: HookEvent, key: string): Promise<boolean> {
  const row = engine.store.read((db) => getSession(db, key));
  if (row) return row.status === 'active';
  await engine.sessions.start({ sessionKey: key, harness: e.harness, project: projectFromCwd(e.cwd) ?? null, maxInjectTokens: 0 });
  return true;
}

function markInjected(engine: MemoryEngine<MemoryStore>, key: string, ids: readonly string[], nowMs: number): Promise<void> {
  return engine.store.write('hook-injection', (db) => {
    const base = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories WHERE session_key = ?', [key])?.n ?? 0;
    ids.forEach((id, i) => {
      db.run(`INSERT INTO session_memories (session_key, agent_id, memory_id, source, final_score, rank, was_injected, fts_hit_count, created_ms) VALUES (?, ?, ?, 'hook', 0, ?, 1, 0, ?)
              ON CONFLICT(session_key, agent_id, memory_id) DO UPDATE SET was_injected = 1`, [key, AGENT, id, base + i, nowMs]);
    });
  });
}

async function sessionStart(engine: MemoryEngine<MemoryStore>, e: HookEvent): Promise<HookResult> {
  const cfg = engine.currentSettings.agents;
  const key = agentSessionKeyOf(e.sessionId);
  if (!cfg.injectEnabled || cfg.sessionStartTokens === 0) {
    await ensureSession(engine, e, key);
    return { output: undefined, note: 'injection off' };
  }
  const started = await engine.sessions.start({ sessionKey: key, harness: e.harness, project: projectFromCwd(e.cwd) ?? null, maxInjectTokens: cfg.sessionStartTokens, ...(e.prompt ? { query: e.prompt } : {}) })
    .catch(async (err: unknown) => {
      // an ended session resumed by the harness: start a continuation with nothing injected
      if (engine.store.read((db) => getSession(db, key))) return undefined;
      throw err;
    });
  const injected = started?.injected ?? [];
  if (!injected.length) return { output: undefined, note: 'nothing to inject' };
  const dates = engine.store.read((db) => new Map(db.all<{ id: string; created_at: string; pinned: number }>(`SELECT id, created_at, pinned FROM memories WHERE id IN (${injected.map(() => '?').join(',')})`, injected.map((m) => m.id)).map((r) => [r.id, r])));
  const reason = (source: string, pinned: boolean): string => (pinned ? 'pinned' : source === 'focal' || source === 'pinned' ? 'about what this project is working on' : source === 'project' ? 'from this project' : 'important and recent');
  const lines = injected.map((m) => {
    const d = dates.get(m.id);
    return `- (${day(d?.created_at)}; ${reason(m.source, d?.pinned === 1)}) ${m.content.replace(/\s+/g, ' ').trim()}`;
  });
  await engine.recordInjection({ harness: e.harness, sessionId: e.sessionId, memories: injected.map((m) => ({ id: m.id, content: m.content })) });
  return { output: contextOutput(e, wrap(lines, 'Memories from earlier sessions (date; why each was chosen):')), note: `injected ${injected.length}`, injectedIds: injected.map((m) => m.id) };
}

/**
 * How a long-lived caller (the hook service, src/cli/hookService.ts) answers sooner: `defer` takes
 * the bookkeeping a UserPromptSubmit answer does not depend on (starting the session, capturing
 * the prompt, recording what was injected) to run right after the answer is sent, before the next
 * call (the service answers one call at a time). It returns the note of that work. Without it the
 * work runs before the result is returned, as a one-shot process needs.
 */
export interface HookRunOptions {
  readonly defer?: (work: () => Promise<string>) => void;
}

async function userPrompt(engine: MemoryEngine<MemoryStore>, e: HookEvent, options: HookRunOptions): Promise<HookResult> {
  const cfg = engine.currentSettings.agents;
  const key = agentSessionKeyOf(e.sessionId);
  const injecting = cfg.injectEnabled && cfg.promptTokens > 0 && Boolean(e.prompt?.trim());
  const chosen: { id: string; content: string; line: string }[] = [];
  let recalled = 0;
  if (injecting) {
    // What recall finds does not depend on the session's own records, only on what was injected
    // into it before (never the same memory twice): the session is started after the answer.
    const given = new Set(engine.store.read((db) => readAgentSession(db, e.sessionId)).injected.map((m) => m.id));
    const outcome = await engine.recallDetailed({ query: e.prompt ?? '', limit: PROMPT_RECALL_LIMIT }, { track: false, explain: true });
    recalled = outcome.items.length;
    let left = cfg.promptTokens;
    for (const r of outcome.items) {
      if (given.has(r.id)) continue;
      const ex = r.explain;
      const coverage = ex?.termCount ? (ex.termsHit ?? 0) / ex.termCount : 0;
      const evidence = Math.max(ex?.channels.semantic ?? 0, coverage);
      if (evidence < cfg.relevanceBar) continue;
      const text = r.content.replace(/\s+/g, ' ').trim();
      const cost = estimateTokens(text) + 8;
      if (cost > left) continue;
      left -= cost;
      const stale = r.currentness?.status === 'superseded' ? ` [SUPERSEDED${r.currentness.replacement ? ` by: ${r.currentness.replacement.replace(/\s+/g, ' ').slice(0, 200)}` : ''} — do not rely on it]`
        : r.currentness?.status === 'partly-superseded' ? ' [partly superseded: prefer newer memories]' : '';
      chosen.push({ id: r.id, content: r.content, line: `- (${day(r.createdAt)}; relevance ${evidence.toFixed(2)}) ${text}${stale}` });
    }
  }
  let capture: AgentCaptureReport | undefined;
  // The session, the prompt's capture (after the recall above, so the prompt is never injected
  // back into its own turn; before the injection is recorded, as the echo guard expects) and the
  // injection records.
  const bookkeeping = async (): Promise<string> => {
    const active = await ensureSession(engine, e, key);
    let captured = '';
    // A harness with no transcript (Copilot CLI) hands us only the prompt: capture it.
    if (!e.transcriptPath && e.prompt) {
      capture = await engine.captureTurns({ harness: e.harness, sessionId: e.sessionId, ...(e.cwd ? { workspace: e.cwd } : {}), turns: [{ role: 'user', key: `prompt-${e.timestampMs ?? engine.nowMs()}`, text: e.prompt }], instructionTexts: instructionTexts(e.cwd) });
      captured = `prompt captured: stored ${capture.stored}, confirmed ${capture.confirmed}`;
    }
    if (chosen.length) {
      await engine.recordInjection({ harness: e.harness, sessionId: e.sessionId, memories: chosen.map((c) => ({ id: c.id, content: c.content })) });
      if (active) await markInjected(engine, key, chosen.map((c) => c.id), engine.nowMs());
    }
    return captured;
  };
  const answer = !injecting ? 'no injection' : chosen.length ? `injected ${chosen.length}` : `nothing relevant (${recalled} recalled)`;
  const output = chosen.length ? contextOutput(e, wrap(chosen.map((c) => c.line), 'Memories relevant to this prompt (date; relevance):')) : undefined;
  const injectedIds = chosen.length ? { injectedIds: chosen.map((c) => c.id) } : {};
  if (options.defer) {
    options.defer(bookkeeping);
    return { output, note: answer, ...injectedIds };
  }
  const captured = await bookkeeping();
  return { output, note: `${answer}${captured ? `; ${captured}` : ''}`, ...injectedIds, ...(capture ? { capture } : {}) };
}

async function captureEvent(engine: MemoryEngine<MemoryStore>, e: HookEvent): Promise<HookResult> {
  const key = agentSessionKeyOf(e.sessionId);
  const active = await ensureSession(engine, e, key);
  let capture: AgentCaptureReport | undefined;
  let note = 'no transcript';
  try {
    if (e.transcriptPath) {
      const path = e.transcriptPath;
      const cursor = engine.store.read((db) => readCursor(db, path));
      const read = readNewTurns(path, cursor, engine.currentSettings.capture.maxTurnChars);
      capture = await engine.captureTurns({ harness: e.harness, sessionId: e.sessionId, ...(e.cwd ? { workspace: e.cwd } : {}), turns: read.turns, instructionTexts: instructionTexts(e.cwd) });
      const injected = engine.store.read((db) => readAgentSession(db, e.sessionId)).injected;
      const verdicts = usageVerdicts(injected, agentWrittenText(read.turns));
      const nowIso = new Date(engine.nowMs()).toISOString();
      await engine.store.write('hook-checkpoint', (db) => {
        // the cursor moves only with the capture done: a failed call re-reads the same turns next time
        writeCursor(db, path, read.cursor);
        if (active) { writeUsageEvidence(db, key, AGENT, verdicts); checkpointHookSession(db, key, AGENT, nowIso); }
      });
      note = `${read.rewritten ? 'transcript rewritten, re-read; ' : ''}${read.turns.length} new turn(s) (${read.format}): stored ${capture.stored}, confirmed ${capture.confirmed}; used ${verdicts.filter((v) => v.used).length}/${verdicts.length}`;
    }
  } finally {
    if (e.event === 'SessionEnd' && active) {
      const r = await engine.sessions.end(key, 'explicit');
      note += r ? '; session ended' : '';
    }
  }
  return { output: undefined, note, ...(capture ? { capture } : {}) };
}

/** Runs one hook event on an open engine. Throws on failure (the adapter logs it and outputs nothing). */
export async function runHookEvent(engine: MemoryEngine<MemoryStore>, e: HookEvent, options: HookRunOptions = {}): Promise<HookResult> {
  switch (e.event) {
    case 'SessionStart': return sessionStart(engine, e);
    case 'UserPromptSubmit': return userPrompt(engine, e, options);
    case 'Stop': case 'SubagentStop': case 'PreCompact': case 'SessionEnd': return captureEvent(engine, e);
    default: return { output: undefined, note: 'event not used' };
  }
}
