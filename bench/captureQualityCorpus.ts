/**
 * Runs the labelled agent-transcript corpus (test/fixtures/agentCapture/corpus.json) through the
 * real capture path — each session rendered in its harness's own transcript format, read by the
 * hook's transcript reader, captured by MemoryEngine.captureTurns with the session's injected
 * memories and instruction files — and scores what was stored (docs/agents.md, "Measured").
 * Shared by bench/captureQuality.ts and the unit test that holds the thresholds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/core/clock';
import { readMemorySettings } from '../src/core/config/memorySettings';
import { MemoryEngine } from '../src/core/engine/memoryEngine';
import { noProgress } from '../src/core/hostContext';
import { silentLogger } from '../src/core/logger';
import { readNewTurns } from '../src/core/hooks/hookTranscript';
import { openMemoryStore } from '../src/core/store/memoryStore';

export interface CorpusTurn { role: 'user' | 'assistant' | 'tool'; text: string; label: string; kind?: string; expect?: string; secret?: string }
export interface CorpusSession { id: string; harness: string; format: 'claude' | 'copilot' | 'jsonl'; cwd: string; injected: string[]; instructions: string[]; turns: CorpusTurn[] }

export const CORPUS_PATH = join(__dirname, '..', 'test', 'fixtures', 'agentCapture', 'corpus.json');
/** Written after the guards were frozen and never used to change them: the out-of-sample check. */
export const HELD_OUT_PATH = join(__dirname, '..', 'test', 'fixtures', 'agentCapture', 'heldOut.json');

export function loadCorpus(path = CORPUS_PATH): CorpusSession[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { sessions: CorpusSession[] }).sessions;
}

/** The session in its harness's transcript format (one line per turn, key t<i>). */
export function renderSession(s: CorpusSession): string {
  const ts = (i: number): string => new Date(Date.parse('2026-12-01T09:00:00Z') + i * 5_000).toISOString();
  return s.turns.map((t, i) => {
    const key = `t${i}`;
    if (s.format === 'claude') {
      if (t.role === 'tool') return JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu${i}`, content: t.text }] }, uuid: key, sessionId: s.id, cwd: s.cwd, timestamp: ts(i) });
      return JSON.stringify({ type: t.role, message: { role: t.role, content: t.role === 'assistant' ? [{ type: 'text', text: t.text }] : t.text }, uuid: key, sessionId: s.id, cwd: s.cwd, timestamp: ts(i) });
    }
    if (s.format === 'copilot') {
      const type = t.role === 'user' ? 'user.message' : t.role === 'assistant' ? 'assistant.message' : 'tool.execution_complete';
      return JSON.stringify({ type, data: t.role === 'tool' ? { toolName: 'bash', result: t.text } : { content: t.text }, id: key, timestamp: ts(i) });
    }
    return JSON.stringify({ role: t.role, content: t.text, id: key, sessionId: s.id, timestamp: ts(i), ...(t.role === 'tool' ? { toolName: 'terminal' } : {}) });
  }).join('\n') + '\n';
}

export interface KindScore { turns: number; stored: number }
export interface CorpusScore {
  turns: number;
  planted: number;
  plantedStored: number;
  storedTotal: number;
  storedPlanted: number;
  precision: number;
  recall: number;
  echoesStored: number;
  secretsOnDisk: number;
  confirmedDuplicates: number;
  duplicates: number;
  /** Per label (junk kinds and planted kinds): turns and turns that stored something. */
  byKind: Record<string, KindScore>;
  leaks: { session: string; label: string; stored: string }[];
  missed: { session: string; text: string }[];
}

export async function scoreCorpus(sessions: readonly CorpusSession[] = loadCorpus()): Promise<CorpusScore> {
  const clock = new ManualClock(Date.parse('2026-12-02T10:00:00Z'));
  const store = await openMemoryStore({ clock });
  const engine = MemoryEngine.onStore(store, { paths: { storeDir: '', bundledModelsDir: '', cacheDir: '' }, logger: silentLogger, clock, llm: undefined, progress: noProgress }, readMemorySettings(() => undefined), { mode: 'onDemand', embedder: () => undefined });
  const dir = mkdtempSync(join(tmpdir(), 'agent-memory-corpus-'));
  const score: CorpusScore = { turns: 0, planted: 0, plantedStored: 0, storedTotal: 0, storedPlanted: 0, precision: 0, recall: 0, echoesStored: 0, secretsOnDisk: 0, confirmedDuplicates: 0, duplicates: 0, byKind: {}, leaks: [], missed: [] };
  try {
    for (const s of sessions) {
      // what the session was given: remembered earlier, injected by a hook
      const given = [];
      for (const content of s.injected) {
        const r = await engine.remember({ content, sourceType: 'manual' });
        given.push({ id: r.id, content });
      }
      if (given.length) await engine.recordInjection({ harness: s.harness, sessionId: s.id, memories: given });
      const file = join(dir, `${s.id}.jsonl`);
      writeFileSync(file, renderSession(s));
      const read = readNewTurns(file, undefined, 8_000);
      const report = await engine.captureTurns({ harness: s.harness, sessionId: s.id, workspace: s.cwd, turns: read.turns, instructionTexts: s.instructions });
      const stored = store.read((db) => db.all<{ id: string; content: string; source_id: string }>(
        `SELECT id, content, source_id FROM memories WHERE id IN (${report.memoryIds.map(() => '?').join(',') || "''"})`, [...report.memoryIds]));
      const byTurn = new Map<number, string[]>();
      for (const m of stored) {
        const key = /:t(\d+)(?:#\d+)?:\d+$/.exec(m.source_id)?.[1];
        if (key === undefined) continue;
        byTurn.set(Number(key), [...(byTurn.get(Number(key)) ?? []), m.content]);
      }
      s.turns.forEach((t, i) => {
        score.turns++;
        const got = byTurn.get(i) ?? [];
        const label = t.label === 'planted' ? `planted:${t.kind ?? 'other'}` : t.label;
        const k = (score.byKind[label] ??= { turns: 0, stored: 0 });
        k.turns++;
        if (got.length) k.stored++;
        score.storedTotal += got.length;
        if (t.label === 'planted') {
          score.planted++;
          const hit = got.some((c) => c.toLowerCase().includes((t.expect ?? '').toLowerCase()));
          if (hit) score.plantedStored++; else score.missed.push({ session: s.id, text: t.text });
          score.storedPlanted += got.length;
        } else {
          for (const c of got) score.leaks.push({ session: s.id, label: t.label, stored: c });
          if (t.label === 'echo') score.echoesStored += got.length;
          if (t.label === 'duplicate') score.duplicates++;
        }
      });
      score.confirmedDuplicates += report.confirmed;
      for (const t of s.turns) {
        if (!t.secret) continue;
        const leaked = store.read((db) => db.all<{ n: number }>("SELECT COUNT(*) AS n FROM memories WHERE instr(content, ?) > 0", [t.secret ?? ''])[0]?.n ?? 0);
        score.secretsOnDisk += leaked;
      }
    }
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
  score.precision = score.storedTotal ? score.storedPlanted / score.storedTotal : 1;
  score.recall = score.planted ? score.plantedStored / score.planted : 1;
  return score;
}
