import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import type { RankedRecall } from '../../../src/core/recall/recallPipeline';
import { recallDetailed, sessionSource } from '../../../src/core/recall/recallService';
import { trackedRecall } from '../../../src/core/sessions/recallTracking';
import type { RecallRequest } from '../../../src/core/recall/recallRequest';
import { openStore } from '../../../src/core/store/openStore';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';
import { addAspect, addAttribute, addEntity, addMemory, openTestStore } from '../feedback/graphFixture';
import { HeldSyncFs } from '../helpers/heldSyncFs';
import { makeTempDir } from '../helpers/tempDir';
import { makeService } from './sessionFixture';

const NOTES: readonly [string, string, string][] = [
  ['deploy', 'schedule', 'production deploys happen on thursday afternoons'],
  ['deploy', 'tooling', 'deploys run through the release pipeline with a canary stage'],
  ['database', 'engine', 'the orders database is postgres on the primary cluster'],
  ['database', 'backups', 'database backups run nightly and are kept for thirty days'],
  ['editor', 'settings', 'the team formats code on save with two space indentation'],
];

/**
 * Recall bookkeeping as it was written before it was deferred and coalesced: one UPDATE per returned
 * memory and one upsert per session row, in the recall's own write. The reference outcome.
 */
function recordRecallAsBefore(w: SqlWriter, ranked: RankedRecall, req: RecallRequest, nowIso: string, lexicalCap: number): void {
  const ids = ranked.results.map((c) => c.id);
  for (const id of ids) w.run('UPDATE memories SET access_count = access_count + 1, last_accessed = ? WHERE id = ?', [nowIso, id]);
  if (req.session === undefined) return;
  const lexical = new Set(ranked.lexicalIds.slice(0, lexicalCap));
  const upsert = `INSERT INTO session_memories (session_key, memory_id, source, final_score, rank, was_injected, fts_hit_count, created_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(session_key, agent_id, memory_id) DO UPDATE SET
      fts_hit_count = fts_hit_count + excluded.fts_hit_count,
      was_injected = MAX(was_injected, excluded.was_injected),
      final_score = MAX(final_score, excluded.final_score)`;
  let rank = w.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories WHERE session_key = ?', [req.session])?.n ?? 0;
  for (const c of ranked.results) w.run(upsert, [req.session, c.id, sessionSource(c), c.score, rank++, req.injected ? 1 : 0, lexical.has(c.id) ? 1 : 0, Date.parse(nowIso)]);
  const returned = new Set(ids);
  for (const id of lexical) {
    if (returned.has(id)) continue;
    w.run(upsert, [req.session, id, 'fts_only', 0, rank++, 0, 1, Date.parse(nowIso)]);
  }
}

/**
 * How the bookkeeping is written: 'atOnce' each recall in its own write (the reference),
 * 'deferred' the deferred write on an in-memory store, 'durableHeldSync' the deferred write on a
 * durable store whose journal fdatasync is held open while the next recall is asked and answered.
 */
type BookkeepingMode = 'atOnce' | 'deferred' | 'durableHeldSync';

/** The session's recalls, then its end, on a fresh store; returns everything feedback wrote. */
async function runSession(mode: BookkeepingMode): Promise<{ rows: unknown[]; aspects: unknown[]; access: unknown[]; end: unknown; pendingBeforeEnd: number; answeredDuringSync: number; syncsPending: number }> {
  const clock = new ManualClock(Date.UTC(2026, 2, 1));
  const temp = mode === 'durableHeldSync' ? makeTempDir() : undefined;
  const fs = new HeldSyncFs();
  // A long deferral: only flushDeferred() (and the session's own writes) commit the bookkeeping.
  const store: MemoryStore = temp ? await openStore({ dir: temp.dir, clock, fs, config: { deferredWriteMs: 60_000 } }) : (await openTestStore(clock)).store;
  await store.write('t', (db) => {
    const entities = new Map<string, string>();
    NOTES.forEach(([entity, aspect, content], i) => {
      const e = entities.get(entity) ?? addEntity(db, clock.now(), entity);
      entities.set(entity, e);
      const a = addAspect(db, clock.now(), e, aspect, 0.5);
      addAttribute(db, clock.now(), e, a, addMemory(db, clock.now(), { id: `mem-${i}`, content, importance: 0.5 + i / 20 }));
    });
    db.run('UPDATE memories SET content_hash = id WHERE content_hash IS NULL');
  });
  const { service } = makeService(store, clock);
  await service.start({ sessionKey: 'eq' });
  const requests: RecallRequest[] = [
    { query: 'when do production deploys happen', session: 'eq', injected: true, only: 'lexical' },
    { query: 'database backups', session: 'eq', only: 'lexical' },
    { query: 'deploys database', session: 'eq', only: 'lexical', limit: 2 },
    { query: 'which database engine', only: 'lexical' },
    { query: 'deploys pipeline canary', session: 'eq', injected: true, only: 'lexical' },
  ];
  const cap = resolveSearchConfig().topK;
  let answeredDuringSync = 0, syncsPending = 0;
  let flushing: Promise<void> | undefined;
  for (const req of requests) {
    clock.advance(60_000);
    if (mode === 'durableHeldSync') {
      // The previous recall's bookkeeping is being synced (held) while this recall is answered.
      const out = await trackedRecall(store, req, { clock });
      if (flushing) syncsPending++;
      if (fs.held > 0) answeredDuringSync++;
      fs.release();
      await flushing;
      flushing = undefined;
      if (out.bookkeeping) {
        fs.hold = true;
        flushing = store.flushDeferred();
        await fs.entered();
      }
    } else if (mode === 'atOnce') {
      // The behaviour before deferral: each recall's bookkeeping in its own write, at once.
      const out = await recallDetailed(store, req, { clock });
      const nowIso = new Date(clock.now()).toISOString();
      await store.write('recall', (w) => recordRecallAsBefore(w, out, req, nowIso, cap));
    } else {
      await trackedRecall(store, req, { clock });
    }
  }
  if (flushing) {
    fs.hold = false;
    fs.release();
    await flushing;
  }
  const pendingBeforeEnd = mode === 'durableHeldSync' ? 0 : countRows(store);
  clock.advance(60_000);
  const end = await service.end('eq');
  const rows = store.read((db) => db.all('SELECT memory_id, source, rank, was_injected, fts_hit_count, final_score FROM session_memories WHERE session_key = ? ORDER BY rank', ['eq']));
  const aspects = store.read((db) => db.all('SELECT e.name AS entity, a.name AS aspect, a.weight FROM entity_aspects a JOIN entities e ON e.id = a.entity_id ORDER BY 1, 2'));
  const access = store.read((db) => db.all('SELECT id, access_count, last_accessed FROM memories ORDER BY id'));
  await store.close();
  temp?.cleanup();
  return { rows, aspects, access, end: (end as { feedback?: unknown } | undefined)?.feedback, pendingBeforeEnd, answeredDuringSync, syncsPending };
}

function countRows(store: MemoryStore): number {
  return store.read((db) => db.get<{ n: number }>('SELECT SUM(access_count) AS n FROM memories')?.n ?? 0);
}

describe('recall hits feed the session feedback loop', () => {
  it('a lexical recall during the session raises the aspect of the memory it found', async () => {
    const { store, clock } = await openTestStore();
    const { aspect, memory } = await store.write('t', (db) => {
      const e = addEntity(db, clock.now(), 'Deploy');
      const aspect = addAspect(db, clock.now(), e, 'schedule', 0.5);
      const memory = addMemory(db, clock.now(), { content: 'production deploys happen on thursday afternoons', importance: 0.9 });
      addAttribute(db, clock.now(), e, aspect, memory);
      return { aspect, memory };
    });
    await store.write('hash', (db) => db.run("UPDATE memories SET content_hash = id WHERE content_hash IS NULL"));
    const { service } = makeService(store, clock);
    await service.start({ sessionKey: 'r1' });
    const found = (await trackedRecall(store, { query: 'when do production deploys happen', session: 'r1', only: 'lexical' }, { clock })).items;
    assert.equal(found[0]?.id, memory);
    await store.flushDeferred();
    const hits = store.read((db) => db.get<{ fts_hit_count: number; was_injected: number }>('SELECT fts_hit_count, was_injected FROM session_memories WHERE session_key = ? AND memory_id = ?', ['r1', memory]));
    assert.deepEqual([hits?.fts_hit_count, hits?.was_injected], [1, 1], 'the start row is kept (injected) and the hit counted');
    const r = await service.end('r1');
    assert.deepEqual([r?.feedback?.feedbackAspectsUpdated, r?.feedback?.feedbackFtsConfirmations], [1, 1]);
    assert.ok(Math.abs((store.read((db) => db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ?', [aspect])?.weight) ?? 0) - 0.52) < 1e-12);
    await store.close();
  });

  it('deferred bookkeeping gives the same feedback outcome as writing each recall at once', async () => {
    const atOnce = await runSession('atOnce');
    const deferred = await runSession('deferred');
    assert.ok(atOnce.pendingBeforeEnd > 0);
    assert.equal(deferred.pendingBeforeEnd, 0, 'nothing was written on the recall path');
    assert.ok(atOnce.rows.length > 0);
    assert.deepEqual(deferred.rows, atOnce.rows);
    assert.deepEqual(deferred.access, atOnce.access);
    assert.deepEqual(deferred.end, atOnce.end);
    assert.deepEqual(deferred.aspects, atOnce.aspects);
    assert.ok((atOnce.end as { feedbackAspectsUpdated: number }).feedbackAspectsUpdated > 0, 'the session moved aspect weights');
  });

  it('on a durable store, recalls answered while the bookkeeping fdatasync is held give the same feedback outcome', async () => {
    const atOnce = await runSession('atOnce');
    const held = await runSession('durableHeldSync');
    // Every recall that followed one with something to record was answered while that batch synced.
    assert.ok(held.syncsPending >= 2);
    assert.equal(held.answeredDuringSync, held.syncsPending, 'recalls were answered while the previous batch was syncing');
    assert.deepEqual(held.rows, atOnce.rows);
    assert.deepEqual(held.access, atOnce.access);
    assert.deepEqual(held.end, atOnce.end);
    assert.deepEqual(held.aspects, atOnce.aspects);
  });
});
