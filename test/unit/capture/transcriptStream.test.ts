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
import { makeTempDir } from '../helpers/tempDir';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');
const TOOLS = ['Kafka', 'Redis', 'Postgres', 'Nginx', 'Terraform', 'Docker', 'Vite', 'Jest', 'Rust', 'Kotlin'];

interface Row { content: string; type: string; source_id: string; session_key: string; project: string | null; created_at: string }
const memories = (store: MemoryStore): Row[] => store.read((db) => db.all<Row>('SELECT content, type, source_id, session_key, project, created_at FROM memories ORDER BY source_id'));
const turns = (store: MemoryStore): { session_key: string; role: string; text: string; created_at: string }[] =>
  store.read((db) => db.all('SELECT session_key, role, text, created_at FROM session_turns ORDER BY seq'));
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
