import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { resolveCaptureConfig } from '../../../src/core/config/captureConfig';
import { createRecordingLogger } from '../../../src/core/logger';
import { defaultRememberDeps } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { readLedger } from '../../../src/core/capture/importLedger';
import { ImportFolderWatcher } from '../../../src/core/capture/importFolderWatcher';
import { IDENTITY_HEAD_BYTES, importWatchedFile, nodeFileReader } from '../../../src/core/capture/watchedFileImport';
import type { FileReader, WatchedImportResult } from '../../../src/core/capture/watchedFileImport';
import { makeTempDir } from '../helpers/tempDir';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');
const readFixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const line = (o: object): string => `${JSON.stringify(o)}\n`;

describe('capture: import folder watcher', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let store: MemoryStore;
  let clock: ManualClock;
  let fire: (path: string) => void;
  let scheduled: { fn: () => void; ms: number; cancelled: boolean }[];
  let results: WatchedImportResult[];
  let errors: string[];
  let watcher: ImportFolderWatcher;
  let watching: boolean;

  beforeEach(async () => {
    tmp = makeTempDir('am-capture-watch-');
    clock = new ManualClock(Date.parse('2026-11-29T10:00:00Z'));
    store = await openMemoryStore({ clock });
    scheduled = []; results = []; errors = []; watching = false;
    watcher = new ImportFolderWatcher({
      store, folder: tmp.dir, capture: resolveCaptureConfig({ importFolder: tmp.dir, watchDebounceMs: 500 }), logger: createRecordingLogger(),
      importDeps: { remember: defaultRememberDeps(clock), capture: resolveCaptureConfig() },
      watch: (_folder, onChange) => { fire = onChange; watching = true; return { dispose: () => { watching = false; } }; },
      schedule: (fn, ms) => { const s = { fn, ms, cancelled: false }; scheduled.push(s); return () => { s.cancelled = true; }; },
      onImported: (r) => results.push(r),
      onError: (p, e) => errors.push(`${p}: ${(e as Error).message}`),
    });
  });
  afterEach(async () => { watcher.dispose(); await store.close(); tmp.cleanup(); });

  const count = (sql: string): number => store.read((db) => db.get<{ n: number }>(sql))?.n ?? -1;

  it('imports the transcripts already in the folder at start and ignores other files', async () => {
    copyFileSync(join(FIXTURES, 'claude-session.jsonl'), join(tmp.dir, 'a.jsonl'));
    copyFileSync(join(FIXTURES, 'vscode-chat-export.json'), join(tmp.dir, 'b.json'));
    writeFileSync(join(tmp.dir, 'notes.txt'), 'We decided to use Rust.');
    await watcher.start();
    await watcher.flush();
    assert.equal(watching, true);
    assert.deepEqual(results.map((r) => r.report?.format), ['claude', 'vscode']);
    assert.equal(count('SELECT COUNT(*) AS n FROM sessions'), 2);
  });

  it('debounces changes: one import after the last change of a burst', async () => {
    await watcher.start();
    const file = join(tmp.dir, 's.jsonl');
    writeFileSync(file, line({ role: 'user', content: 'We will use pnpm workspaces for the monorepo.', sessionId: 'w-1' }));
    fire(file); fire(file); fire(file);
    assert.deepEqual(scheduled.map((s) => [s.ms, s.cancelled]), [[500, true], [500, true], [500, false]]);
    scheduled[2]?.fn();
    await watcher.flush();
    assert.equal(results.length, 1);
    assert.equal(results[0]?.report?.memoriesCreated, 2);
  });

  it('imports appended JSONL lines incrementally, waiting for an unfinished last line', async () => {
    await watcher.start();
    const file = join(tmp.dir, 'live.jsonl');
    writeFileSync(file, line({ role: 'user', content: 'We will use pnpm workspaces for the monorepo.', sessionId: 'w-2', project: 'shop' }));
    fire(file);
    await watcher.flush();
    const firstOffset = results[0]?.toOffset ?? 0;
    appendFileSync(file, line({ role: 'assistant', content: 'Done.' }) + '{"role":"user","content":"We decided to use Redis for the ses');
    fire(file);
    await watcher.flush();
    assert.equal(results[1]?.fromOffset, firstOffset);
    assert.equal(results[1]?.report?.turns, 1, 'only the complete new line');
    appendFileSync(file, 'sion cache."}\n');
    fire(file);
    await watcher.flush();
    assert.equal(results[2]?.report?.turns, 1);
    assert.equal(results[2]?.report?.memoriesCreated, 1, 'the finished line, no second summary');
    const mem = store.read((db) => db.get<{ project: string; session_key: string }>("SELECT project, session_key FROM memories WHERE content LIKE '%Redis%'"));
    assert.deepEqual(mem, { project: 'shop', session_key: 'import:jsonl:w-2' }, 'later chunks keep the session and project of the first lines');
    assert.equal(count("SELECT COUNT(*) AS n FROM session_turns WHERE session_key = 'import:jsonl:w-2'"), 3);
    const ledger = store.read((db) => readLedger(db, file));
    assert.equal(ledger?.lines, 3);
  });

  it('numbers generic lines across chunks so line keys stay unique', async () => {
    await watcher.start();
    const file = join(tmp.dir, 'n.jsonl');
    writeFileSync(file, line({ role: 'user', content: 'first question' }));
    fire(file); await watcher.flush();
    appendFileSync(file, line({ role: 'user', content: 'second question' }));
    fire(file); await watcher.flush();
    assert.equal(count('SELECT COUNT(*) AS n FROM session_turns'), 2);
  });

  it('does nothing for an unchanged file and starts over when a file is rewritten', async () => {
    await watcher.start();
    const file = join(tmp.dir, 'r.jsonl');
    writeFileSync(file, line({ role: 'user', content: 'We will use Vite for the frontend.', sessionId: 'r-1' }));
    fire(file); await watcher.flush();
    fire(file); await watcher.flush();
    assert.equal(results[1]?.report, undefined);
    writeFileSync(file, line({ role: 'user', content: 'We decided to use Kafka for events.', sessionId: 'r-2' }));
    fire(file); await watcher.flush();
    assert.equal(results[2]?.fromOffset, 0);
    assert.equal(count("SELECT COUNT(*) AS n FROM sessions WHERE session_key = 'import:jsonl:r-2'"), 1);
  });

  it('reports a corrupt file and keeps watching; a half-written VS Code export is retried on its next change', async () => {
    await watcher.start();
    copyFileSync(join(FIXTURES, 'corrupt.jsonl'), join(tmp.dir, 'bad.jsonl'));
    fire(join(tmp.dir, 'bad.jsonl'));
    const exportFile = join(tmp.dir, 'chat.json');
    const full = readFixture('vscode-chat-export.json');
    writeFileSync(exportFile, full.slice(0, 200));
    fire(exportFile);
    await watcher.flush();
    assert.equal(errors.length, 2);
    assert.match(errors[0] ?? '', /line 2: not valid JSON/);
    writeFileSync(exportFile, full);
    fire(exportFile);
    await watcher.flush();
    assert.equal(results.at(-1)?.report?.format, 'vscode');
  });

  it('stops watching and drops pending imports on dispose', async () => {
    await watcher.start();
    const file = join(tmp.dir, 'd.jsonl');
    writeFileSync(file, line({ role: 'user', content: 'hello' }));
    fire(file);
    watcher.dispose();
    assert.equal(watching, false);
    assert.equal(scheduled[0]?.cancelled, true);
    await watcher.flush();
    assert.equal(results.length, 0);
  });

  it('reads only the head and the appended bytes of a long log it resumes', async () => {
    const file = join(tmp.dir, 'long.jsonl');
    writeFileSync(file, Array.from({ length: 400 }, (_, i) => line({ role: 'tool', content: `output ${i} ${'x'.repeat(300)}` })).join(''));
    const reads: [number, number][] = [];
    const fs: FileReader = { stat: nodeFileReader.stat, read: (p, a, b) => { reads.push([a, b]); return nodeFileReader.read(p, a, b); } };
    const deps = { remember: defaultRememberDeps(clock), capture: resolveCaptureConfig(), fs };
    const first = await importWatchedFile(store, file, deps, resolveCaptureConfig());
    appendFileSync(file, line({ role: 'user', content: 'We decided to use Kafka for events.' }));
    reads.length = 0;
    const second = await importWatchedFile(store, file, deps, resolveCaptureConfig());
    assert.ok(first.toOffset > IDENTITY_HEAD_BYTES);
    assert.deepEqual(reads, [[0, IDENTITY_HEAD_BYTES], [first.toOffset, second.toOffset]]);
    assert.equal(second.report?.memoriesCreated, 1);
  });

  describe('links and logs', () => {
    let outside: ReturnType<typeof makeTempDir>;
    let logger: ReturnType<typeof createRecordingLogger>;
    let linked: ImportFolderWatcher;
    const secretLine = 'We decided to keep the launch codes here: 0000-SECRET-LINE';

    beforeEach(() => {
      outside = makeTempDir('am-capture-outside-');
      writeFileSync(join(outside.dir, 'elsewhere.jsonl'), line({ role: 'user', content: secretLine }));
      writeFileSync(join(outside.dir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
      logger = createRecordingLogger();
      linked = new ImportFolderWatcher({
        store, folder: tmp.dir, capture: resolveCaptureConfig({ importFolder: tmp.dir, watchDebounceMs: 500 }), logger,
        importDeps: { remember: defaultRememberDeps(clock), capture: resolveCaptureConfig() },
        watch: (_folder, onChange) => { fire = onChange; return { dispose: () => undefined }; },
        schedule: (fn) => { fn(); return () => undefined; },
        onImported: (r) => results.push(r),
      });
    });
    afterEach(() => { linked.dispose(); outside.cleanup(); });

    it('never follows a link out of the folder, at startup or on a change event', async () => {
      symlinkSync(join(outside.dir, 'elsewhere.jsonl'), join(tmp.dir, 'link.jsonl'));
      const skipped = (): number => logger.lines.filter((l) => /link\.jsonl skipped \(not a file inside .*links out of the folder are never followed\)/.test(l.message)).length;
      await linked.start();
      await linked.flush();
      assert.equal(skipped(), 1, 'skipped at startup');
      fire(join(tmp.dir, 'link.jsonl'));
      await linked.flush();
      assert.ok(skipped() >= 2, 'skipped on the change event');
      assert.equal(results.length, 0);
      assert.equal(count('SELECT COUNT(*) AS n FROM memories'), 0);
    });

    it('follows a link that stays inside the folder', async () => {
      writeFileSync(join(tmp.dir, 'real.jsonl'), line({ role: 'user', content: 'We decided to use Kafka for events.' }));
      symlinkSync(join(tmp.dir, 'real.jsonl'), join(tmp.dir, 'alias.jsonl'));
      await linked.start();
      await linked.flush();
      assert.equal(count('SELECT COUNT(*) AS n FROM sessions'), 1, 'the link and its target are one file (one ledger entry)');
    });

    it('logs where a file failed, never what it holds', async () => {
      symlinkSync(join(outside.dir, 'passwd'), join(tmp.dir, 'inside-passwd.json'));
      writeFileSync(join(tmp.dir, 'broken.json'), 'root:x:0:0:root:/root:/bin/bash');
      writeFileSync(join(tmp.dir, 'bad.jsonl'), line({ role: 'user', content: 'hi', timestamp: 'root:x:0:0' }));
      await linked.start();
      await linked.flush();
      const text = logger.lines.map((l) => l.message).join('\n');
      assert.match(text, /broken\.json not imported \(E_INVALID_INPUT at field \$\)/);
      assert.match(text, /bad\.jsonl not imported \(E_INVALID_INPUT at line 1, field timestamp\)/);
      assert.doesNotMatch(text, /root:x|\/bin\/bash|SECRET-LINE/);
    });
  });
});
