import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { isMemoryError } from '../../../src/core/errors';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { SqlDatabase } from '../../../src/core/store/sqlDatabase';
import { MIGRATIONS, SCHEMA_VERSION, addColumnIfMissing, runMigrations } from '../../../src/core/store/migrations';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';

const TABLES = ['memories', 'memories_fts', 'embeddings', 'entities', 'entities_fts', 'relations', 'memory_entity_mentions',
  'entity_aspects', 'entity_attributes', 'sessions', 'session_memories', 'session_scores', 'memory_hints', 'memory_hints_fts',
  'memory_jobs', 'graph_ops', 'predictor_comparisons', 'meta', 'schema_migrations'];

const T0 = '2026-01-01T00:00:00.000Z';

function insertMemory(w: SqlWriter, id: string, content: string): void {
  w.run('INSERT INTO memories (id, content, created_at, updated_at) VALUES (?, ?, ?, ?)', [id, content, T0, T0]);
}

/** The FTS5 index pages of memories_fts, as one comparable string. */
function ftsPages(store: MemoryStore): string {
  return store.read((db) => db.all<{ id: number; block: Uint8Array }>('SELECT id, block FROM memories_fts_data ORDER BY id')
    .map((r) => `${r.id}:${Buffer.from(r.block).toString('hex')}`).join('|'));
}

describe('store schema and in-memory store', () => {
  let store: MemoryStore;
  beforeEach(async () => { store = await openMemoryStore({ clock: new ManualClock() }); });
  afterEach(async () => { await store.close(); });

  it('creates every table the issue lists', () => {
    for (const t of TABLES) assert.ok(store.read((db) => db.hasTable(t)), `missing table ${t}`);
  });

  it('records the schema version and a store id in meta', () => {
    const meta = store.read((db) => db.all<{ key: string; value: string }>('SELECT key, value FROM meta'));
    const map = new Map(meta.map((r) => [r.key, r.value]));
    assert.equal(map.get('schema_version'), String(SCHEMA_VERSION));
    assert.equal(map.get('store_id'), store.storeId);
    assert.match(store.storeId, /^[0-9a-f-]{36}$/);
  });

  it('running the migrations again changes nothing', async () => {
    const before = store.read((db) => db.all('SELECT type, name, sql FROM sqlite_master ORDER BY name'));
    const outcome = await store.write('migrate', (w) => {
      let runs = 0;
      const counting: SqlWriter = { ...w, run: (sql, p) => { runs++; return w.run(sql, p); } };
      const result = runMigrations(counting, { nowIso: T0, newStoreId: () => 'other', migrations: MIGRATIONS });
      return { ...result, runs };
    });
    assert.deepEqual(outcome.applied, []);
    assert.equal(outcome.runs, 0);
    assert.deepEqual(store.read((db) => db.all('SELECT type, name, sql FROM sqlite_master ORDER BY name')), before);
  });

  it('adds a missing column once and reports a second call as a no-op', async () => {
    const added = await store.write('col', (w) => [addColumnIfMissing(w, 'memories', 'extra_note', 'TEXT'), addColumnIfMissing(w, 'memories', 'extra_note', 'TEXT')]);
    assert.deepEqual(added, [true, false]);
    assert.ok(store.read((db) => db.all<{ name: string }>('PRAGMA table_info(memories)').some((c) => c.name === 'extra_note')));
  });

  it('keeps metadata-only updates out of the FTS index', async () => {
    await store.write('add', (w) => insertMemory(w, 'm1', 'the parser uses tabs'));
    const before = ftsPages(store);
    await store.write('touch', (w) => w.run('UPDATE memories SET last_accessed = ?, access_count = access_count + 1, pinned = 1, importance = 0.9 WHERE id = ?', [T0, 'm1']));
    assert.equal(ftsPages(store), before);
  });

  it('reindexes the FTS on a content update', async () => {
    await store.write('add', (w) => insertMemory(w, 'm1', 'the parser uses tabs'));
    const before = ftsPages(store);
    await store.write('edit', (w) => w.run('UPDATE memories SET content = ? WHERE id = ?', ['the lexer prefers spaces', 'm1']));
    assert.notEqual(ftsPages(store), before);
    const hits = store.read((db) => db.all<{ id: string }>('SELECT m.id FROM memories_fts f JOIN memories m ON m.rowid = f.rowid WHERE memories_fts MATCH ?', ['lexer']));
    assert.deepEqual(hits.map((h) => h.id), ['m1']);
    assert.equal(store.read((db) => db.all('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?', ['parser'])).length, 0);
  });

  it('removes a hard-deleted memory from the FTS index', async () => {
    await store.write('add', (w) => insertMemory(w, 'm1', 'remember the milk'));
    await store.write('delete', (w) => w.run('DELETE FROM memories WHERE id = ?', ['m1']));
    assert.equal(store.read((db) => db.all('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?', ['milk'])).length, 0);
  });

  it('keeps entities_fts and memory_hints_fts in sync', async () => {
    await store.write('graph', (w) => {
      insertMemory(w, 'm1', 'we deploy with kubernetes');
      w.run('INSERT INTO entities (id, name, canonical_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['e1', 'Kubernetes', 'kubernetes', T0, T0]);
      w.run('INSERT INTO memory_hints (memory_id, hint, created_at) VALUES (?, ?, ?)', ['m1', 'how do we deploy?', T0]);
    });
    assert.equal(store.read((db) => db.all("SELECT rowid FROM entities_fts WHERE entities_fts MATCH 'kubernetes'")).length, 1);
    assert.equal(store.read((db) => db.all("SELECT rowid FROM memory_hints_fts WHERE memory_hints_fts MATCH 'deploy'")).length, 1);
  });

  it('rolls back a write whose function throws', async () => {
    await assert.rejects(store.write('bad', (w) => { insertMemory(w, 'm1', 'half'); throw new Error('boom'); }), /boom/);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 0);
  });

  it('refuses non-deterministic SQL in writes', async () => {
    await assert.rejects(store.write('bad', (w) => w.run("INSERT INTO meta (key, value) VALUES ('x', datetime('now'))")), (e) => isMemoryError(e, 'E_INTERNAL'));
    await assert.rejects(store.write('bad', (w) => w.run("INSERT INTO meta (key, value) VALUES ('x', random())")), (e) => isMemoryError(e, 'E_INTERNAL'));
  });

  it('refuses a content hash duplicate among live memories of one project', async () => {
    const add = (id: string) => (w: SqlWriter) => w.run('INSERT INTO memories (id, content, content_hash, project, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [id, 'x', 'h', 'p', T0, T0]);
    await store.write('a', add('m1'));
    await assert.rejects(store.write('b', add('m2')), (e) => isMemoryError(e, 'E_INVALID_INPUT'));
  });

  it('turns an engine trap into E_STORE_CORRUPT and refuses every later statement', () => {
    const trap = Object.assign(new Error('memory access out of bounds'), { name: 'RuntimeError' });
    const engine = { prepare: () => { throw trap; }, exec: () => undefined, close: () => undefined };
    const db = new SqlDatabase(engine as never);
    assert.throws(() => db.get('SELECT 1'), (e) => isMemoryError(e, 'E_STORE_CORRUPT') && /failed internally and was restarted; try again/.test(e.message));
    assert.throws(() => db.exec('BEGIN'), (e) => isMemoryError(e, 'E_STORE_CORRUPT'));
  });

  it('reports changes and accepts named parameters', async () => {
    const r = await store.write('named', (w) => w.run('INSERT INTO meta (key, value) VALUES (:k, :v)', { k: 'a', v: 'b' }));
    assert.equal(r.changes, 1);
    assert.equal(store.read((db) => db.get<{ value: string }>('SELECT value FROM meta WHERE key = $k', { k: 'a' }))?.value, 'b');
  });
});
