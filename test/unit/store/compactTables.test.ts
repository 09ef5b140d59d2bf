import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { listGraphOps } from '../../../src/core/graph/graphAudit';
import { GRAPH_OPS_KEPT, compactGraphOps } from '../../../src/core/graph/graphOpsRetention';
import { getMemory, insertMemory } from '../../../src/core/memory/memoryRecords';
import { MIGRATIONS, runMigrations } from '../../../src/core/store/migrations';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { COMPACT_TABLES_MIGRATION_VERSION } from '../../../src/core/store/schema/compactTablesSchema';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

const T0 = '2026-01-01T00:00:00.000Z';
const columns = (s: MemoryStore, table: string): string[] => s.read((db) => db.all<{ name: string }>(`PRAGMA table_info(${table})`).map((c) => c.name));
const indexes = (s: MemoryStore, table: string): string[] => s.read((db) => db.all<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_%' ORDER BY name", [table]).map((r) => r.name));
const tableSql = (s: MemoryStore, table: string): string => s.read((db) => db.get<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [table])?.sql ?? '');
const count = (s: MemoryStore, sql: string, params: unknown[] = []): number => s.read((db) => db.get<{ n: number }>(sql, params as never[])?.n ?? -1);

/** A store at schema 27 (before migration 28) with rows in every table the migration rebuilds. */
async function olderStore(): Promise<MemoryStore> {
  const store = await openMemoryStore({ clock: new ManualClock(Date.UTC(2026, 0, 1)), migrations: MIGRATIONS.filter((m) => m.version < COMPACT_TABLES_MIGRATION_VERSION) });
  await store.write('seed', (w) => {
    for (let i = 0; i < 4; i++) {
      w.run(`INSERT INTO memories (id, content, normalized_content, content_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
        [`m${i}`, `We deploy service ${i} with Kubernetes`, `we deploy service ${i} with kubernetes`, `hash-${i}`, T0, T0]);
      w.run('INSERT INTO memory_hints (id, memory_id, hint, created_at) VALUES (?, ?, ?, ?)', [`h${i}`, `m${i}`, `how do we deploy service ${i}?`, T0]);
      w.run('INSERT INTO memory_entity_mentions (memory_id, entity_id, mention_text, confidence, created_at) VALUES (?, ?, ?, ?, ?)', [`m${i}`, 'e-k8s', 'Kubernetes', 0.7, T0]);
    }
    w.run('DELETE FROM memory_hints WHERE id = ?', ['h1']);
    w.run("INSERT INTO entities (id, name, canonical_name, created_at, updated_at) VALUES ('e-k8s', 'Kubernetes', 'kubernetes', ?, ?)", [T0, T0]);
    w.run("INSERT INTO entities (id, name, canonical_name, created_at, updated_at) VALUES ('e-api', 'api', 'api', ?, ?)", [T0, T0]);
    w.run("INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, created_at, updated_at) VALUES ('r1', 'e-api', 'e-k8s', 'uses', ?, ?)", [T0, T0]);
    // A relation's provenance row, old enough to have left the audit window, and a recent row.
    w.run(`INSERT INTO graph_ops (id, op, target_kind, target_id, memory_id, actor, details, created_at) VALUES ('g1', 'relation_create', 'relation', 'r1', 'm0', 'extractor', '{"reason":"old"}', ?)`, [T0]);
    w.run(`INSERT INTO graph_ops (id, op, target_kind, target_id, memory_id, actor, details, created_at) VALUES ('g2', 'mention_link', 'mention', 'e-k8s', 'm3', 'extractor', '{"reason":"recent"}', ?)`, [T0]);
    w.run("INSERT INTO meta (key, value) VALUES ('graph_ops_pruned_to', '1')");
    // A memory claim row (memorySupersessionWrites.ts) and an aspect attribute.
    w.run(`INSERT INTO entity_attributes (id, entity_id, aspect_id, memory_id, content, normalized_content, group_key, created_at, updated_at)
           VALUES ('claim-0', NULL, NULL, 'm0', 'We deploy service 0 with Kubernetes', 'we deploy service 0 with kubernetes', 'memory', ?, ?)`, [T0, T0]);
    w.run("INSERT INTO entity_aspects (id, entity_id, name, canonical_name, created_at, updated_at) VALUES ('a1', 'e-api', 'deploy', 'deploy', ?, ?)", [T0, T0]);
    w.run(`INSERT INTO entity_attributes (id, entity_id, aspect_id, memory_id, content, normalized_content, group_key, created_at, updated_at)
           VALUES ('attr-1', 'e-api', 'a1', 'm2', 'deploys with Kubernetes', 'deploys with kubernetes', 'deploy', ?, ?)`, [T0, T0]);
  });
  return store;
}

describe('migration 28: compact tables', () => {
  it('converts a store written before it: ids, a column, indexes and copies gone, every row and rowid kept', async () => {
    const store = await olderStore();
    try {
      assert.ok(columns(store, 'memory_hints').includes('id') && columns(store, 'graph_ops').includes('id') && columns(store, 'memories').includes('normalized_content'), 'the old layout');
      const hintRows = store.read((db) => db.all('SELECT rowid, memory_id, agent_id, hint, created_at FROM memory_hints ORDER BY rowid'));
      const opRows = store.read((db) => db.all('SELECT rowid, op, target_kind, target_id, memory_id, actor, created_at FROM graph_ops ORDER BY rowid'));
      const memoryRows = store.read((db) => db.all('SELECT rowid, id, content, content_hash FROM memories ORDER BY rowid'));
      const migrated = await store.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));
      assert.deepEqual(migrated.applied.filter((v) => v <= COMPACT_TABLES_MIGRATION_VERSION), [COMPACT_TABLES_MIGRATION_VERSION], 'later migrations apply after it');

      assert.deepEqual(columns(store, 'memory_hints'), ['memory_id', 'agent_id', 'hint', 'created_at']);
      assert.deepEqual(indexes(store, 'memory_hints'), [], 'UNIQUE(memory_id, hint) serves the memory_id lookups');
      assert.deepEqual(store.read((db) => db.all('SELECT rowid, memory_id, agent_id, hint, created_at FROM memory_hints ORDER BY rowid')), hintRows, 'same hints, same rowids (with the gap)');
      assert.deepEqual(store.read((db) => db.all("SELECT rowid FROM memory_hints_fts WHERE memory_hints_fts MATCH 'deploy' ORDER BY rowid").map((r) => (r as { rowid: number }).rowid)), [1, 3, 4], 'the FTS index still names the rows');

      assert.match(tableSql(store, 'memory_entity_mentions'), /WITHOUT ROWID/);
      assert.deepEqual(columns(store, 'memory_entity_mentions'), ['memory_id', 'entity_id', 'mention_text', 'confidence']);
      assert.deepEqual(indexes(store, 'memory_entity_mentions'), ['idx_mentions_entity']);
      assert.equal(count(store, "SELECT COUNT(*) AS n FROM memory_entity_mentions WHERE entity_id = 'e-k8s' AND mention_text = 'Kubernetes' AND confidence = 0.7"), 4);

      assert.deepEqual(columns(store, 'graph_ops'), ['op', 'target_kind', 'target_id', 'memory_id', 'actor', 'details', 'created_at']);
      assert.deepEqual(indexes(store, 'graph_ops'), ['idx_graph_ops_target_id']);
      assert.deepEqual(store.read((db) => db.all('SELECT rowid, op, target_kind, target_id, memory_id, actor, created_at FROM graph_ops ORDER BY rowid')), opRows);
      assert.deepEqual(store.read((db) => db.all('SELECT rowid, details FROM graph_ops ORDER BY rowid')), [{ rowid: 1, details: null }, { rowid: 2, details: '{"reason":"recent"}' }],
        'the provenance row outside the window lost its details; the recent row kept them');
      assert.deepEqual(store.read((db) => listGraphOps(db, { targetId: 'e-k8s' })).map((o) => [o.op, o.reason]), [['mention_link', 'recent']]);

      assert.deepEqual(indexes(store, 'entity_attributes'), ['idx_attributes_aspect', 'idx_attributes_entity', 'idx_attributes_memory']);
      assert.deepEqual(store.read((db) => db.all('SELECT id, content, normalized_content FROM entity_attributes ORDER BY id')), [
        { id: 'attr-1', content: 'deploys with Kubernetes', normalized_content: 'deploys with kubernetes' },
        { id: 'claim-0', content: 'We deploy service 0 with Kubernetes', normalized_content: null },
      ]);

      assert.ok(!columns(store, 'memories').includes('normalized_content'));
      assert.deepEqual(store.read((db) => db.all('SELECT rowid, id, content, content_hash FROM memories ORDER BY rowid')), memoryRows);
      assert.equal(count(store, "SELECT COUNT(*) AS n FROM memories_fts WHERE memories_fts MATCH 'kubernetes'"), 4);
      assert.equal(store.read((db) => getMemory(db, 'm2'))?.content, 'We deploy service 2 with Kubernetes');

      // The triggers of the rebuilt hints table keep its FTS index in sync.
      await store.write('more', (w) => {
        w.run('INSERT INTO memory_hints (memory_id, hint, created_at) VALUES (?, ?, ?)', ['m1', 'where are the helm charts?', T0]);
        w.run("DELETE FROM memory_hints WHERE memory_id = 'm0'");
      });
      assert.equal(count(store, "SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH 'helm'"), 1);
      assert.equal(count(store, "SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH 'deploy'"), 2);
      assert.deepEqual((await store.write('again', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }))).applied, [], 'runs once');
      assert.deepEqual(store.read((db) => db.all('PRAGMA integrity_check')), [{ integrity_check: 'ok' }]);
    } finally {
      await store.close();
    }
  });

  it('is idempotent: running its steps on a converted store changes nothing', async () => {
    const store = await olderStore();
    try {
      await store.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));
      const snapshot = (): unknown => store.read((db) => [db.all("SELECT type, name, sql FROM sqlite_schema ORDER BY name"), db.all('SELECT rowid, * FROM graph_ops ORDER BY rowid'), db.all('SELECT rowid, * FROM memory_hints ORDER BY rowid')]);
      const before = snapshot();
      const migration = MIGRATIONS.find((m) => m.version === COMPACT_TABLES_MIGRATION_VERSION);
      assert.ok(migration);
      await store.write('again', (w) => migration.up({ ...w, all: w.all.bind(w), get: w.get.bind(w), run: w.run.bind(w), hasTable: w.hasTable.bind(w), addColumnIfMissing: () => false, nowIso: T0 }));
      assert.deepEqual(snapshot(), before);
    } finally {
      await store.close();
    }
  });

  it('retention drops the details of provenance rows as they leave the audit window, and keeps the rows', async () => {
    const store = await openMemoryStore({ clock: new ManualClock(Date.UTC(2026, 0, 1)) });
    try {
      await store.write('seed', (w) => {
        insertMemory(w, { id: 'm0', content: 'the api uses kubernetes', createdAt: T0 });
        w.run("INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, created_at, updated_at) VALUES ('r1', 'e-api', 'e-k8s', 'uses', ?, ?)", [T0, T0]);
        w.run(`INSERT INTO graph_ops (op, target_kind, target_id, memory_id, actor, details, created_at) VALUES ('relation_create', 'relation', 'r1', 'm0', 'extractor', '{"reason":"extraction"}', ?)`, [T0]);
        for (let i = 0; i < GRAPH_OPS_KEPT + 10; i++) w.run("INSERT INTO graph_ops (op, target_kind, target_id, actor, details, created_at) VALUES ('pin', 'entity', 'e', 'test', '{}', ?)", [T0]);
        compactGraphOps(w, { force: true });
      });
      assert.deepEqual(store.read((db) => db.get('SELECT op, target_id, memory_id, actor, created_at, details FROM graph_ops WHERE rowid = 1')),
        { op: 'relation_create', target_id: 'r1', memory_id: 'm0', actor: 'extractor', created_at: T0, details: null });
      assert.equal(count(store, 'SELECT COUNT(*) AS n FROM graph_ops'), GRAPH_OPS_KEPT + 1);
      assert.equal(count(store, 'SELECT COUNT(*) AS n FROM graph_ops WHERE details IS NULL'), 1, 'rows inside the window keep their details');
    } finally {
      await store.close();
    }
  });
});
