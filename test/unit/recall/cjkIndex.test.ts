import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { forgetMemory, softDeleteMemory } from '../../../src/core/memory/forget';
import { insertMemory as insertRecord } from '../../../src/core/memory/memoryRecords';
import { lexicalSearch } from '../../../src/core/recall/lexicalArm';
import { hasCjk, queryTerms } from '../../../src/core/recall/queryTerms';
import { MIGRATIONS, runMigrations } from '../../../src/core/store/migrations';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { CJK_INDEX_MIGRATION, CJK_INDEX_MIGRATION_VERSION } from '../../../src/core/store/schema/cjkSchema';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { insertMemory } from './recallDb';

const T0 = '2026-01-01T00:00:00.000Z';
const cfg = resolveSearchConfig();

function indexedIds(store: MemoryStore): string[] {
  return store.read((db) => db.all<{ id: string }>('SELECT m.id AS id FROM memories_cjk c JOIN memories m ON m.rowid = c.memory_rowid ORDER BY m.id').map((r) => r.id));
}

function search(store: MemoryStore, query: string): string[] {
  return [...store.read((db) => lexicalSearch(db, queryTerms(query, cfg.lexical.maxTerms), {}, cfg)).keys()];
}

describe('CJK probe index (memories_cjk, migration 21)', () => {
  let store: MemoryStore;
  const clock = new ManualClock();
  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await store.write('seed', (w) => {
      insertMemory(w, { id: 'm-zh', content: '生产环境的数据库端口是 5433' });
      insertMemory(w, { id: 'm-zh2', content: '部署之前先检查配置文件' });
      insertMemory(w, { id: 'm-en', content: 'The staging database listens on port 5432' });
    });
  });
  afterEach(async () => { await store.close(); });

  it('holds exactly the memories whose content contains CJK', () => {
    assert.deepEqual(indexedIds(store), ['m-zh', 'm-zh2']);
  });

  it('a two-character Chinese query finds its memory through the index', () => {
    assert.deepEqual(search(store, '端口是多少？'), ['m-zh']);
    assert.deepEqual(search(store, '配置好了吗'), ['m-zh2']);
  });

  it('the probe reads the index: a memory missing from it is not probed', async () => {
    await store.write('drop-row', (w) => w.run("DELETE FROM memories_cjk WHERE memory_rowid = (SELECT rowid FROM memories WHERE id = 'm-zh')"));
    assert.deepEqual(search(store, '端口'), []);
  });

  it('finds a memory added through insertMemory (the remember path)', async () => {
    await store.write('remember', (w) => insertRecord(w, { id: 'm-rec', content: '发布流程需要审计日志', createdAt: T0 }));
    assert.ok(indexedIds(store).includes('m-rec'));
    assert.deepEqual(search(store, '审计'), ['m-rec']);
  });

  it('forget removes the index row', async () => {
    await forgetMemory(store, 'm-zh', clock);
    assert.deepEqual(indexedIds(store), ['m-zh2']);
    assert.deepEqual(search(store, '端口'), []);
  });

  it('a soft-deleted memory keeps its row but is filtered out of recall', async () => {
    await softDeleteMemory(store, 'm-zh', clock);
    assert.deepEqual(indexedIds(store), ['m-zh', 'm-zh2']);
    assert.deepEqual(search(store, '端口'), []);
  });

  it('a content edit moves a memory into and out of the index', async () => {
    await store.write('edit', (w) => {
      w.run("UPDATE memories SET content = 'port is 5433 now' WHERE id = 'm-zh'");
      w.run("UPDATE memories SET content = 'staging 数据库 on 5432' WHERE id = 'm-en'");
    });
    assert.deepEqual(indexedIds(store), ['m-en', 'm-zh2']);
    assert.deepEqual(search(store, '数据库'), ['m-en']);
  });

  it('metadata updates leave the index untouched', async () => {
    await store.write('touch', (w) => w.run("UPDATE memories SET access_count = access_count + 1, pinned = 1 WHERE id = 'm-zh'"));
    assert.deepEqual(indexedIds(store), ['m-zh', 'm-zh2']);
  });

  it('the migration backfills a store created before it, and running it again is a no-op', async () => {
    const older = await openMemoryStore({ clock, migrations: MIGRATIONS.filter((m) => m.version !== CJK_INDEX_MIGRATION_VERSION) });
    try {
      await older.write('seed', (w) => {
        insertMemory(w, { id: 'o-zh', content: '用户主题设置在这里' });
        insertMemory(w, { id: 'o-en', content: 'user theme settings live here' });
      });
      assert.equal(older.read((db) => db.hasTable('memories_cjk')), false);
      const first = await older.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));
      assert.deepEqual(first.applied, [CJK_INDEX_MIGRATION_VERSION]);
      assert.deepEqual(indexedIds(older), ['o-zh']);
      const second = await older.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));
      assert.deepEqual(second.applied, []);
      await older.write('replay', (w) => CJK_INDEX_MIGRATION.up({ ...w, all: w.all.bind(w), get: w.get.bind(w), run: w.run.bind(w), hasTable: w.hasTable.bind(w), addColumnIfMissing: () => false, nowIso: T0 }));
      assert.deepEqual(indexedIds(older), ['o-zh']);
      assert.deepEqual(search(older, '主题'), ['o-zh']);
    } finally {
      await older.close();
    }
  });

  it('the GLOB class covers the same ranges as hasCjk', async () => {
    const edges = ['\u3040', '\u30ff', '\u3400', '\u4dbf', '\u4e00', '\u9fff', '\uf900', '\ufaff', '\uac00', '\ud7af'];
    const outside = ['\u303f', '\u3100', '\u33ff', '\u4dc0', '\ua000', '\uf8ff', '\ufb00', '\uabff', '\ud7b0'];
    await store.write('edges', (w) => {
      edges.forEach((c, i) => insertMemory(w, { id: `in-${i}`, content: `x ${c} y` }));
      outside.forEach((c, i) => insertMemory(w, { id: `out-${i}`, content: `x ${c} y` }));
    });
    const ids = new Set(indexedIds(store));
    edges.forEach((c, i) => { assert.ok(hasCjk(c)); assert.ok(ids.has(`in-${i}`), `U+${c.charCodeAt(0).toString(16)} should be indexed`); });
    outside.forEach((c, i) => { assert.equal(hasCjk(c), false); assert.equal(ids.has(`out-${i}`), false, `U+${c.charCodeAt(0).toString(16)} should not be indexed`); });
  });
});
