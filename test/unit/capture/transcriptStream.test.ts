import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_CAPTURE_CONFIG, resolveCaptureConfig } from '../../../src/core/config/captureConfig';
import { isMemoryError } from '../../../src/core/errors';
import { defaultRememberDeps } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { parseTranscript } from '../../../src/core/capture/transcriptFormat';
import { importTranscript } from '../../../src/core/capture/transcriptImport';
import type { ImportTranscriptDeps } from '../../../src/core/capture/transcriptImport';
import { importTranscriptFileStreamed } from '../../../src/core/capture/transcriptStream';
import { expandTurns } from '../../../src/core/capture/turnBlocks';
import type { StoredTurn } from '../../../src/core/capture/turnBlocks';
import { makeTempDir } from '../helpers/tempDir';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');
const TOOLS = ['Kafka', 'Redis', 'Postgres', 'Nginx', 'Terraform', 'Docker', 'Vite', 'Jest', 'Rust', 'Kotlin'];

interface Row { content: string; type: string; source_id: string; session_key: string; project: string | null; created_at: string }
const memories = (store: MemoryStore): Row[] => store.read((db) => db.all<Row>('SELECT content, type, source_id, session_key, project, created_at FROM memories ORDER BY source_id'));
// The streamed import stores a batch's turns as one block row; expandTurns reads both forms back turn by turn.
const turns = (store: MemoryStore): StoredTurn[] => store.read((db) => expandTurns(db));
const sessions = (store: MemoryStore): unknown[] => store.read((db) => db.all('SELECT session_key, project, harness, status, summary, started_at, ended_at, end_reason FROM sessions'));

describe('capture: streamed transcript import', () => {
  let clock: ManualClock;
  let tmp: ReturnType<typeof makeTempDir>;
  let deps: ImportTranscriptDeps;
  beforeEach(() => {
    clock = new ManualClock(Date.parse('2026-11-29T10:00:00Z'));
    tmp = makeTempDir('am-stream-import-');
    deps = { remember: defaultRememberDeps(clock), capture: DEFAULT_CAPTURE_CONFIG };
  });
  afterEach(() => { tmp.cleanup(); });

  for (const name of ['claude-session.jsonl', 'generic.jsonl']) {
    it(`stores exactly what the whole-file import stores (${name}), in batches of 3 lines`, async () => {
      const whole = await openMemoryStore({ clock });
      const streamed = await openMemoryStore({ clock });
      const file = join(FIXTURES, name);
      const a = await importTranscript(whole, parseTranscript(readFileSync(file, 'utf8')), deps);
      const b = await importTranscriptFileStreamed(streamed, file, deps, { batchLines: 3 });
      assert.ok(b);
      assert.deepEqual({ ...b, memoryIds: b.memoryIds.length }, { ...a, memoryIds: a.memoryIds.length });
      assert.deepEqual(memories(streamed), memories(whole));
      assert.deepEqual(turns(streamed), turns(whole));
      assert.deepEqual(sessions(streamed), sessions(whole));
      await whole.close();
      await streamed.close();
    });
  }

  it('leaves a VS Code export (one JSON document) to the whole-file import, writing nothing', async () => {
    const store = await openMemoryStore({ clock });
    assert.equal(await importTranscriptFileStreamed(store, join(FIXTURES, 'vscode-chat-export.json'), deps), undefined);
    assert.equal(memories(store).length, 0);
    await store.close();
  });

  it('imports a long transcript in many transactions and resumes after a crash without duplicating anything', async () => {
    const file = join(tmp.dir, 'long.jsonl');
    const lines = Array.from({ length: 1_000 }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: i % 100 === 0 ? `We decided to use ${TOOLS[i / 100]} for events.` : `turn ${i} text`, sessionId: 'long-1' }));
    writeFileSync(file, `${lines.join('\n')}\n`);
    const store = await openMemoryStore({ clock });
    let batches = 0;
    await assert.rejects(importTranscriptFileStreamed(store, file, deps, { batchLines: 100, onProgress: () => { if (++batches === 4) throw new Error('killed'); } }), /killed/);
    assert.equal(turns(store).length, 400, 'four batches were committed before the crash');
    assert.equal(memories(store).length, 0, 'memories are written at the end');
    let progress = 0;
    const r = await importTranscriptFileStreamed(store, file, deps, { batchLines: 100, onProgress: () => { progress++; } });
    assert.equal(progress, 10);
    assert.equal(r?.turns, 1_000);
    assert.equal(r?.turnsRecorded, 600, 'only the missing turns are added');
    assert.equal(turns(store).length, 1_000);
    assert.equal(r?.memoriesCreated, 11, 'ten decisions and the summary');
    const again = await importTranscriptFileStreamed(store, file, deps, { batchLines: 100 });
    assert.deepEqual([again?.turnsRecorded, again?.memoriesCreated, again?.duplicates], [0, 0, 11]);
    assert.match(String((sessions(store)[0] as { summary: string }).summary), /500 request\(s\), 500 answer\(s\)/);
    await store.close();
  });

  const rows = (store: MemoryStore): { role: string; text: string }[] => store.read((db) => db.all('SELECT role, text FROM session_turns ORDER BY seq'));
  const genericLines = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} text`, sessionId: 'grow-1', ...(i % 50 === 0 ? { timestamp: `2026-11-0${1 + Math.floor(i / 1000)}T10:${String(Math.floor(i / 50) % 60).padStart(2, '0')}:00Z` } : {}) });
  });

  it('records one block row per batch (not a row per turn) that reads back as the turns, in order, with their dates', async () => {
    const file = join(tmp.dir, 'blocks.jsonl');
    writeFileSync(file, `${genericLines(0, 250).join('\n')}\n`);
    const store = await openMemoryStore({ clock });
    const r = await importTranscriptFileStreamed(store, file, deps, { batchLines: 100 });
    assert.deepEqual([r?.turns, r?.turnsRecorded], [250, 250]);
    assert.deepEqual(rows(store).map((x) => [x.role, x.text.split('\n').length]), [['block', 100], ['block', 100], ['block', 50]]);
    const back = turns(store);
    assert.equal(back.length, 250);
    assert.deepEqual(back.map((t) => t.text), Array.from({ length: 250 }, (_, i) => `turn ${i} text`));
    assert.equal(back[50]?.created_at, '2026-11-01T10:01:00.000Z', 'a dated turn keeps its date');
    assert.equal(back[51]?.created_at, '2026-11-01T10:00:00.000Z', 'an undated turn gets the transcript start');
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT prompt_count AS n FROM sessions'))?.n, 125);
    await store.close();
  });

  it('a grown file adds only its new turns: the last block is rewritten, later ones are added', async () => {
    const file = join(tmp.dir, 'grow.jsonl');
    writeFileSync(file, `${genericLines(0, 250).join('\n')}\n`);
    const store = await openMemoryStore({ clock });
    await importTranscriptFileStreamed(store, file, deps, { batchLines: 100 });
    writeFileSync(file, `${genericLines(0, 370).join('\n')}\n`);
    const r = await importTranscriptFileStreamed(store, file, deps, { batchLines: 100 });
    assert.deepEqual([r?.turns, r?.turnsRecorded], [370, 120]);
    assert.deepEqual(rows(store).map((x) => x.text.split('\n').length), [100, 100, 100, 70]);
    assert.deepEqual(turns(store).map((t) => t.text), Array.from({ length: 370 }, (_, i) => `turn ${i} text`));
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT prompt_count AS n FROM sessions'))?.n, 185);
    const again = await importTranscriptFileStreamed(store, file, deps, { batchLines: 100 });
    assert.equal(again?.turnsRecorded, 0);
    assert.equal(turns(store).length, 370);
    await store.close();
  });

  it('a bad line stops the import after the batches before it; fixed, the import resumes without duplicates', async () => {
    const file = join(tmp.dir, 'badline.jsonl');
    const lines = genericLines(0, 300);
    lines[234] = '{"role": "user", "content": ';
    writeFileSync(file, `${lines.join('\n')}\n`);
    const store = await openMemoryStore({ clock });
    await assert.rejects(importTranscriptFileStreamed(store, file, deps, { batchLines: 100 }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /line 235/.test((e as Error).message));
    assert.equal(turns(store).length, 200, 'the two batches before the bad line were recorded');
    assert.equal(memories(store).length, 0);
    writeFileSync(file, `${genericLines(0, 300).join('\n')}\n`);
    const r = await importTranscriptFileStreamed(store, file, deps, { batchLines: 100 });
    assert.deepEqual([r?.turns, r?.turnsRecorded], [300, 100]);
    assert.deepEqual(turns(store).map((t) => t.text), Array.from({ length: 300 }, (_, i) => `turn ${i} text`));
    await store.close();
  });

  it('redacts secrets in a block like in a turn row', async () => {
    const file = join(tmp.dir, 'secret.jsonl');
    writeFileSync(file, `${JSON.stringify({ role: 'user', content: 'We decided to use the key sk-live-abcdefghijklmnopqrstuvwxyz0123456789 for "Stripe".' })}\n`);
    const store = await openMemoryStore({ clock });
    await importTranscriptFileStreamed(store, file, deps);
    const raw = rows(store).map((x) => x.text).join('\n');
    assert.ok(!raw.includes('abcdefghijklmnopqrstuvwxyz0123456789'), raw);
    assert.match(turns(store)[0]?.text ?? '', /^We decided to use the key .* for "Stripe"\.$/);
    await store.close();
  });

  it('caps the bytes read, names the line of a bad line and the byte of invalid UTF-8', async () => {
    const store = await openMemoryStore({ clock });
    await assert.rejects(importTranscriptFileStreamed(store, '/dev/zero', { ...deps, capture: resolveCaptureConfig({ maxFileBytes: 2 << 20 }) }),
      (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /\/dev\/zero is larger than the 2097152-byte limit \(or never ends\)/.test((e as Error).message));
    const bad = join(tmp.dir, 'bad.jsonl');
    writeFileSync(bad, `${Array.from({ length: 7 }, (_, i) => JSON.stringify({ role: 'user', content: `line ${i}` })).join('\n')}\n{oops\n`);
    await assert.rejects(importTranscriptFileStreamed(store, bad, deps, { batchLines: 3 }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /line 8: not valid JSON/.test((e as Error).message));
    const latin = join(tmp.dir, 'latin.jsonl');
    writeFileSync(latin, Buffer.concat([Buffer.from(`${JSON.stringify({ role: 'user', content: 'ok' })}\n{"role":"user","content":"caf`), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    await assert.rejects(importTranscriptFileStreamed(store, latin, deps, { batchLines: 1 }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /not valid UTF-8 at byte 60/.test((e as Error).message));
    await store.close();
  });
});
