import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { recallDetailed } from '../../../src/core/recall/recallService';
import { trackedRecall } from '../../../src/core/sessions/recallTracking';
import { pruneSessionMemories } from '../../../src/core/sessions/sessionRetention';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { openStore } from '../../../src/core/store/openStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { makeTempDir } from '../helpers/tempDir';
import { insertMemory, seed } from '../recall/recallDb';

const lexicalOnly = resolveSearchConfig({ vector: { enabled: false } });

/** Every file of the store folder with its bytes (the write lock is never left behind). */
function folderBytes(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f)).toString('hex')]));
}

describe('tracked recall (session layer)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: DurableMemoryStore | undefined;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(async () => { await store?.close(); store = undefined; temp.cleanup(); });

  it('a recall leaves the store folder byte-identical; its bookkeeping lands in one batched journal record', async () => {
    const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
    // A long deferral so only flushDeferred() writes (the timer would otherwise race the comparison).
    store = await openStore({ dir: temp.dir, clock, config: { deferredWriteMs: 60_000 } });
    await seed(store, (w) => {
      insertMemory(w, { id: 'port', content: 'The deploy port for the staging server is 8443.' });
      insertMemory(w, { id: 'cfg', content: 'Set the deploy port in the config file before release.' });
    });
    const before = folderBytes(temp.dir);
    const seqBefore = store.stats().appliedSeq;
    const a = await recallDetailed(store, { query: 'deploy port', session: 's1' }, { clock, config: lexicalOnly });
    assert.ok(a.items.length > 0);
    const tracked = [
      await trackedRecall(store, { query: 'deploy port', session: 's1' }, { clock, config: lexicalOnly }),
      await trackedRecall(store, { query: 'staging server', session: 's1' }, { clock, config: lexicalOnly }),
    ];
    assert.deepEqual(folderBytes(temp.dir), before, 'no journal record, tip or snapshot change on the answer path');
    assert.equal(store.stats().appliedSeq, seqBefore);
    await store.flushDeferred();
    assert.deepEqual(await Promise.all(tracked.map((t) => t.recorded)), [true, true]);
    assert.equal(store.stats().appliedSeq, seqBefore + 1, 'both recalls in one record');
    assert.notDeepEqual(folderBytes(temp.dir), before);
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT access_count AS n FROM memories WHERE id = 'port'"))?.n, 2, 'the untracked recall counted nothing');
  });
});

describe('session_memories retention', () => {
  let store: MemoryStore;
  const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
  beforeEach(async () => { store = await openMemoryStore({ clock }); });
  afterEach(async () => { await store.close(); });

  /** `n` rows for session `key`, all at minute `minute`. */
  const rows = (key: string, n: number, minute: number): Promise<void> => store.write('rows', (w) => {
    for (let i = 0; i < n; i++) {
      w.run('INSERT INTO session_memories (session_key, memory_id, source, rank, created_ms) VALUES (?, ?, ?, ?, ?)',
        [key, `m${i}`, 'lexical', i, Date.UTC(2026, 0, 1, 0, minute)]);
    }
  });
  const keys = (): string[] => store.read((db) => db.all<{ k: string }>('SELECT DISTINCT session_key AS k FROM session_memories ORDER BY 1').map((r) => r.k));

  it('under the bound nothing is pruned', async () => {
    await rows('a', 5, 1);
    await rows('b', 5, 2);
    assert.equal(await store.write('p', (w) => pruneSessionMemories(w, new Set(), 10, 8)), 0);
    assert.deepEqual(keys(), ['a', 'b']);
  });

  it('over the bound, whole sessions go least recently active first, sparing open sessions and the current batch', async () => {
    await rows('old-ended', 4, 1);
    await rows('old-open', 4, 2);
    await rows('recall-only', 4, 3);
    await rows('current', 4, 0);
    await rows('newest', 4, 9);
    await store.write('sessions', (w) => {
      for (const [key, status] of [['old-ended', 'ended'], ['old-open', 'active']] as const) {
        w.run('INSERT INTO sessions (session_key, status, started_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [key, status, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
      }
    });
    // 20 rows, bound 12, prune to 10: 'current' is oldest but was just written, 'old-open' has no feedback yet.
    const dropped = await store.write('p', (w) => pruneSessionMemories(w, new Set(['current']), 12, 10));
    assert.equal(dropped, 12);
    assert.deepEqual(keys(), ['current', 'old-open']);
  });

  it('tracked recalls keep the table bounded while the newest session keeps its rows', async () => {
    await seed(store, (w) => {
      for (let i = 0; i < 30; i++) insertMemory(w, { id: `m${i}`, content: `deploy note number ${i} about the port` });
    });
    for (let s = 0; s < 4; s++) {
      clock.advance(60_000);
      await trackedRecall(store, { query: 'deploy port note', session: `s${s}`, limit: 10 }, { clock, config: lexicalOnly });
      await store.flushDeferred();
      await store.write('prune', (w) => pruneSessionMemories(w, new Set([`s${s}`]), 25, 20));
    }
    const left = keys();
    assert.ok(left.includes('s3'));
    assert.ok(!left.includes('s0'));
    assert.ok((store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories'))?.n ?? 0) <= 25);
  });
});
