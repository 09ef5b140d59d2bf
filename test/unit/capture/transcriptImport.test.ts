import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_CAPTURE_CONFIG, resolveCaptureConfig } from '../../../src/core/config/captureConfig';
import { defaultRememberDeps } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { parseTranscript } from '../../../src/core/capture/transcriptFormat';
import { importTranscript, TRANSCRIPT_SOURCE_TYPE } from '../../../src/core/capture/transcriptImport';
import type { ImportTranscriptDeps } from '../../../src/core/capture/transcriptImport';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

interface Mem { content: string; type: string; source_id: string; session_key: string; project: string | null; who: string | null; created_at: string }
const memories = (store: MemoryStore): Mem[] => store.read((db) => db.all<Mem>('SELECT content, type, source_id, session_key, project, who, created_at FROM memories WHERE is_deleted = 0 ORDER BY rowid'));

describe('capture: transcript import', () => {
  let clock: ManualClock;
  let store: MemoryStore;
  let deps: ImportTranscriptDeps;
  beforeEach(async () => {
    clock = new ManualClock(Date.parse('2026-11-29T10:00:00Z'));
    store = await openMemoryStore({ clock });
    deps = { remember: defaultRememberDeps(clock), capture: DEFAULT_CAPTURE_CONFIG };
  });
  afterEach(async () => { await store.close(); });

  it('remembers the user decisions, preferences and constraints, assistant constraints, and one session summary', async () => {
    const r = await importTranscript(store, parseTranscript(fixture('claude-session.jsonl')), deps);
    const ms = memories(store);
    assert.deepEqual(ms.map((m) => m.type), ['decision', 'constraint', 'constraint', 'session_summary']);
    assert.deepEqual(ms.slice(0, 3).map((m) => m.content), ['I went with Vitest instead of Jest because it is faster.', 'Never store API keys in config.json.',
      'The checkout service must never call Stripe directly; I kept the payment gateway mock in place.']);
    assert.deepEqual(ms.map((m) => m.who), ['user', 'user', 'Claude Code', 'Claude Code']);
    assert.ok(ms.every((m) => m.project === 'shop' && m.session_key === r.sessionKey));
    assert.equal(ms[0]?.created_at, '2026-11-20T09:00:05.000Z', 'memories keep the time they were said');
    assert.match(ms[3]?.content ?? '', /^Imported Claude Code session "Orders service: switch tests to Vitest" in shop from 2026-11-20: 1 request\(s\), 2 answer\(s\), 4 tool step\(s\)\. First request: "I went with Vitest/);
    assert.deepEqual({ format: r.format, turns: r.turns, memoriesCreated: r.memoriesCreated, duplicates: r.duplicates, sessionKey: r.sessionKey },
      { format: 'claude', turns: 7, memoriesCreated: 4, duplicates: 0, sessionKey: 'import:claude:3f2a9c1e-5b6d-4e7f-8a9b-0c1d2e3f4a5b' });
  });

  it('never remembers tool output or questions', async () => {
    await importTranscript(store, parseTranscript(fixture('vscode-chat-export.json')), deps);
    const text = memories(store).filter((m) => m.type !== 'session_summary').map((m) => m.content);
    assert.deepEqual(text, ['We decided to use PostgreSQL instead of MySQL for the orders service.', 'I prefer tabs over spaces in this repo.']);
  });

  it('is a no-op when the same file is imported twice', async () => {
    const t = parseTranscript(fixture('generic.jsonl'));
    const first = await importTranscript(store, t, deps);
    const turnsBefore = store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_turns'))?.n;
    const again = await importTranscript(store, parseTranscript(fixture('generic.jsonl')), deps);
    assert.equal(first.memoriesCreated, 4);
    assert.deepEqual([again.memoriesCreated, again.duplicates, again.turnsRecorded], [0, 4, 0]);
    assert.equal(memories(store).length, 4);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_turns'))?.n, turnsBefore);
  });

  it('adds only the new turns when a longer version of the transcript is imported', async () => {
    const full = fixture('generic.jsonl');
    const short = full.split('\n').slice(0, 2).join('\n');
    await importTranscript(store, parseTranscript(short), deps, { summary: false });
    const r = await importTranscript(store, parseTranscript(full), deps);
    assert.equal(r.turnsRecorded, 2);
    assert.equal(memories(store).filter((m) => m.type !== 'session_summary').length, 3);
  });

  it('records the conversation as an ended session with its turns, harness and summary', async () => {
    const r = await importTranscript(store, parseTranscript(fixture('claude-session.jsonl')), deps);
    const s = store.read((db) => db.get<{ status: string; harness: string; project: string; end_reason: string; end_step: string; prompt_count: number; summary: string; started_at: string; ended_at: string }>(
      'SELECT status, harness, project, end_reason, end_step, prompt_count, summary, started_at, ended_at FROM sessions WHERE session_key = ?', [r.sessionKey]));
    assert.deepEqual({ ...s, summary: undefined }, { status: 'ended', harness: 'Claude Code', project: 'shop', end_reason: 'imported', end_step: 'done', prompt_count: 1,
      summary: undefined, started_at: '2026-11-20T09:00:00.000Z', ended_at: '2026-11-20T09:01:50.000Z' });
    assert.match(s?.summary ?? '', /^Imported Claude Code session/);
    const turns = store.read((db) => db.all<{ role: string; created_at: string }>('SELECT role, created_at FROM session_turns WHERE session_key = ? ORDER BY seq', [r.sessionKey]));
    assert.deepEqual(turns.map((x) => x.role), ['user', 'assistant', 'tool', 'tool', 'tool', 'tool', 'assistant']);
    assert.equal(turns[6]?.created_at, '2026-11-20T09:01:50.000Z');
    assert.equal(memories(store)[0]?.session_key, r.sessionKey);
  });

  it('uses the project option over the transcript’s own and tags memories as imported', async () => {
    await importTranscript(store, parseTranscript(fixture('claude-session.jsonl')), deps, { project: 'webshop' });
    assert.ok(memories(store).every((m) => m.project === 'webshop'));
    const row = store.read((db) => db.get<{ tags: string; source_type: string }>('SELECT tags, source_type FROM memories LIMIT 1'));
    assert.equal(row?.source_type, TRANSCRIPT_SOURCE_TYPE);
    assert.match(row?.tags ?? '', /imported/);
  });

  it('redacts secrets said in a transcript before they are stored', async () => {
    const line = JSON.stringify({ role: 'user', content: 'We decided to use the key sk-live-abcdefghijklmnopqrstuvwxyz0123456789 for Stripe.' });
    await importTranscript(store, parseTranscript(`${line}\n`), deps);
    const all = memories(store).map((m) => m.content).join('\n');
    assert.ok(!all.includes('abcdefghijklmnopqrstuvwxyz0123456789'), all);
    const turns = store.read((db) => db.all<{ text: string }>('SELECT text FROM session_turns'));
    assert.equal(turns.length, 1);
    assert.ok(!turns[0]?.text.includes('abcdefghijklmnopqrstuvwxyz0123456789'), 'the recorded turn is redacted too');
    assert.match(all, /decided to use the key/);
  });

  it('caps the statements one transcript contributes', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ role: 'user', content: `We decided to use Postgres ${i} for service ${i}.` })).join('\n');
    const r = await importTranscript(store, parseTranscript(lines), { ...deps, capture: resolveCaptureConfig({ maxMemoriesPerTranscript: 3 }) });
    assert.equal(r.memoriesCreated, 4, 'three statements and the summary');
  });

  it('writes only the session for a transcript with nothing memorable and no user turn', async () => {
    const r = await importTranscript(store, parseTranscript('{"role":"assistant","content":"Hello."}\n'), deps);
    assert.equal(r.memoriesCreated, 0);
    assert.equal(r.turnsRecorded, 1);
  });
});
