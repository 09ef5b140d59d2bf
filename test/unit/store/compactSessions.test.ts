import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { forgetMemory } from '../../../src/core/memory/forget';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { gatherSignals } from '../../../src/core/predictor/candidateSignals';
import { recordRecalls } from '../../../src/core/sessions/recallTracking';
import { recordSessionCandidates } from '../../../src/core/sessions/sessionCandidates';
import type { SessionCandidate } from '../../../src/core/sessions/sessionCandidates';
import { pruneSessionMemories } from '../../../src/core/sessions/sessionRetention';
import { MIGRATIONS, runMigrations } from '../../../src/core/store/migrations';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { COMPACT_SESSIONS_MIGRATION_VERSION } from '../../../src/core/store/schema/compactSessionsSchema';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:05:00.123Z';
const columns = (s: MemoryStore): string[] => s.read((db) => db.all<{ name: string }>('PRAGMA table_info(session_memories)').map((c) => c.name));
const indexes = (s: MemoryStore): string[] => s.read((db) => db.all<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'session_memories' ORDER BY name").map((r) => r.name));
const tableSql = (s: MemoryStore): string => s.read((db) => db.get<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'session_memories'")?.sql ?? '');
/** The plan's detail lines of a query (EXPLAIN QUERY PLAN). */
const plan = (s: MemoryStore, sql: string, params: unknown[]): string => s.read((db) => db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never[]).map((r) => r.detail).join(' | '));
const ROW_COLUMNS = 'session_key, agent_id, memory_id, source, effective_score, predictor_score, final_score, rank, was_injected, relevance_score, fts_hit_count';

/** A store at schema 29 (before migration 30) with session_memories rows in the old layout. */
async function olderStore(): Promise<MemoryStore> {
  const store = await openMemoryStore({ clock: new ManualClock(Date.UTC(2026, 0, 1)), migrations: MIGRATIONS.filter((m) => m.version < COMPACT_SESSIONS_MIGRATION_VERSION) });
  await store.write('seed', (w) => {
    for (let i = 0; i < 3; i++) insertMemory(w, { id: `m${i}`, content: `We deploy service ${i} with Kubernetes`, createdAt: T0 });
    w.run("INSERT INTO sessions (session_key, status, started_at, created_at, updated_at) VALUES ('ended', 'ended', ?, ?, ?)", [T0, T0, T0]);
    const insert = `INSERT INTO session_memories (id, session_key, agent_id, memory_id, source, effective_score, predictor_score, final_score, rank, was_injected, relevance_score, fts_hit_count, agent_feedback_count, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
    w.run(insert, ['u1', 'ended', 'default', 'm0', 'effective', 0.7, 0.6, 0.65, 0, 1, 0.9, 2, 0, T0]);
    w.run(insert, ['u2', 'ended', 'default', 'm1', 'lexical', null, null, 0.4, 1, 0, null, 0, 0, T0]);
    w.run(insert, ['u3', 'recall-only', 'default', 'm1', 'fts_only', null, null, 0, 0, 0, null, 1, 0, T1]);
    w.run(insert, ['u4', 'recall-only', 'other-agent', 'm2', 'vector', null, null, 0.3, 1, 1, null, 0, 0, 'not a time']);
  });
  return store;
}

const migrate = (store: MemoryStore): Promise<{ applied: readonly number[] }> => store.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));

describe('migration 30: compact session_memories', () => {
  it('converts a store written before it: WITHOUT ROWID on the key, no id, two indexes and unused columns gone, every row kept, times in ms', async () => {
    const store = await olderStore();
    try {
      assert.ok(columns(store).includes('id') && columns(store).includes('created_at'), 'the old layout');
      assert.equal(indexes(store).length, 5, 'autoindexes of the id primary key and the UNIQUE key, and three indexes');
      const rows = store.read((db) => db.all(`SELECT ${ROW_COLUMNS} FROM session_memories ORDER BY session_key, agent_id, memory_id`));
      const migrated = await migrate(store);
      // Later migrations (31: conflicts and the undo log) run after it; this one runs first and once.
      assert.deepEqual(migrated.applied.filter((v) => v <= COMPACT_SESSIONS_MIGRATION_VERSION), [COMPACT_SESSIONS_MIGRATION_VERSION]);

      assert.match(tableSql(store), /WITHOUT ROWID/);
      assert.match(tableSql(store), /PRIMARY KEY \(session_key, agent_id, memory_id\)/);
      assert.deepEqual(columns(store), ['session_key', 'agent_id', 'memory_id', 'source', 'effective_score', 'predictor_score', 'final_score', 'rank', 'was_injected', 'relevance_score', 'fts_hit_count', 'created_ms']);
      assert.deepEqual(indexes(store), ['idx_session_memories_memory'], 'the table is the b-tree of its key; one index, on memory_id');
      assert.deepEqual(store.read((db) => db.all(`SELECT ${ROW_COLUMNS} FROM session_memories ORDER BY session_key, agent_id, memory_id`)), rows, 'every row and value kept');
      assert.deepEqual(store.read((db) => db.all('SELECT session_key, memory_id, created_ms FROM session_memories ORDER BY session_key, agent_id, memory_id')), [
        { session_key: 'ended', memory_id: 'm0', created_ms: Date.parse(T0) },
        { session_key: 'ended', memory_id: 'm1', created_ms: Date.parse(T0) },
        { session_key: 'recall-only', memory_id: 'm1', created_ms: Date.parse(T1) },
        { session_key: 'recall-only', memory_id: 'm2', created_ms: 0 },
      ], 'ISO times become ms to the millisecond; an unreadable time becomes 0');
      assert.deepEqual((await migrate(store)).applied, [], 'runs once');
      assert.deepEqual(store.read((db) => db.all('PRAGMA integrity_check')), [{ integrity_check: 'ok' }]);
    } finally {
      await store.close();
    }
  });

  it('is idempotent: running its steps on a converted store changes nothing', async () => {
    const store = await olderStore();
    try {
      await migrate(store);
      const snapshot = (): unknown => store.read((db) => [db.all('SELECT type, name, sql FROM sqlite_schema ORDER BY name'), db.all('SELECT * FROM session_memories ORDER BY session_key, agent_id, memory_id')]);
      const before = snapshot();
      const migration = MIGRATIONS.find((m) => m.version === COMPACT_SESSIONS_MIGRATION_VERSION);
      assert.ok(migration);
      await store.write('again', (w) => migration.up({ ...w, all: w.all.bind(w), get: w.get.bind(w), run: w.run.bind(w), hasTable: w.hasTable.bind(w), addColumnIfMissing: () => false, nowIso: T0 }));
      assert.deepEqual(snapshot(), before);
    } finally {
      await store.close();
    }
  });

  it('on a converted store the key serves every per-session query and the memory_id index serves forget and the predictor history', async () => {
    const store = await olderStore();
    try {
      await migrate(store);
      const bySession = plan(store, 'SELECT memory_id, fts_hit_count FROM session_memories WHERE session_key = ? AND agent_id = ? AND fts_hit_count > 0 ORDER BY rank, memory_id', ['s', 'default']);
      assert.match(bySession, /SEARCH session_memories USING PRIMARY KEY \(session_key=\? AND agent_id=\?\)/);
      assert.match(plan(store, 'SELECT COUNT(*) AS n FROM session_memories WHERE session_key = ?', ['s']), /USING PRIMARY KEY \(session_key=\?\)/);
      assert.match(plan(store, 'DELETE FROM session_memories WHERE memory_id = ?', ['m0']), /USING (COVERING )?INDEX idx_session_memories_memory \(memory_id=\?\)/);
      assert.match(plan(store, 'SELECT memory_id, COUNT(*) AS n FROM session_memories WHERE agent_id = ? AND session_key <> ? AND created_ms < ? AND memory_id IN (?, ?) GROUP BY memory_id', ['default', 's', 1, 'm0', 'm1']),
        /INDEX idx_session_memories_memory \(memory_id=\?\)/);
    } finally {
      await store.close();
    }
  });

  it('recall bookkeeping, session-start candidates, the predictor history, pruning and forget work on a converted store', async () => {
    const clock = new ManualClock(Date.parse('2026-01-02T00:00:00.000Z'));
    const store = await olderStore();
    try {
      await migrate(store);
      await store.write('track', (w) => recordRecalls(w, [
        { nowIso: '2026-01-02T00:00:00.000Z', session: 'recall-only', injected: true, results: [{ id: 'm1', source: 'vector', score: 0.8 }, { id: 'm0', source: 'lexical', score: 0.5 }], lexicalIds: ['m1'] },
      ]));
      assert.deepEqual(store.read((db) => db.all("SELECT memory_id, source, rank, was_injected, fts_hit_count, final_score, created_ms FROM session_memories WHERE session_key = 'recall-only' AND agent_id = 'default' ORDER BY rank, memory_id")), [
        { memory_id: 'm1', source: 'fts_only', rank: 0, was_injected: 1, fts_hit_count: 2, final_score: 0.8, created_ms: Date.parse(T1) },
        { memory_id: 'm0', source: 'lexical', rank: 3, was_injected: 1, fts_hit_count: 0, final_score: 0.5, created_ms: Date.parse('2026-01-02T00:00:00.000Z') },
      ], 'the upsert merges into the migrated row and ranks a new row after the session\'s rows');

      const candidate: SessionCandidate = { memoryId: 'm0', content: 'We deploy service 0 with Kubernetes', source: 'effective', effectiveScore: 0.9, predictorScore: undefined, finalScore: 0.9, projectMatch: false };
      const inserted = await store.write('start', (w) => recordSessionCandidates(w, {
        sessionKey: 'new', agentId: 'default', injected: new Set(['m0']), nowIso: '2026-01-03T00:00:00.000Z',
        ordered: [candidate, candidate],
      }));
      assert.equal(inserted, 1, 'INSERT OR IGNORE on the key keeps one row per (session, agent, memory)');

      // m0's history before 2026-01-02T12:00 outside session 'new': the migrated 'ended' row (relevance 0.9: paid) and the recall row of 2026-01-02.
      const signals = store.read((db) => gatherSignals(db, { agentId: 'default', memoryIds: ['m0'], fusedScores: new Map([['m0', 0.5]]), nowMs: clock.now(), excludeSessionKey: 'new', beforeIso: '2026-01-02T12:00:00.000Z', paidOffRelevance: 0.5 }));
      assert.equal(signals.get('m0')?.signals.pastRelevance, 0.5);
      const earlier = store.read((db) => gatherSignals(db, { agentId: 'default', memoryIds: ['m0'], fusedScores: new Map([['m0', 0.5]]), nowMs: clock.now(), excludeSessionKey: 'new', beforeIso: '2026-01-01T12:00:00.000Z', paidOffRelevance: 0.5 }));
      assert.equal(earlier.get('m0')?.signals.pastRelevance, 1, 'only rows created before the given time count');

      // 6 rows; bound 5, prune to 4: the 'ended' session (latest row T0) goes first; 'new' is spared as the current batch.
      const dropped = await store.write('prune', (w) => pruneSessionMemories(w, new Set(['new']), 5, 4));
      assert.equal(dropped, 2);
      assert.deepEqual(store.read((db) => db.all<{ k: string }>('SELECT DISTINCT session_key AS k FROM session_memories ORDER BY 1').map((r) => r.k)), ['new', 'recall-only']);

      await forgetMemory(store, 'm0', clock);
      assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM session_memories WHERE memory_id = 'm0'"))?.n, 0, 'forget removes the memory\'s rows');
      assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories'))?.n, 2);
    } finally {
      await store.close();
    }
  });
});
