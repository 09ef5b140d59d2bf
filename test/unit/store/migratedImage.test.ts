/**
 * openMemoryStore copies a migrated image (built once per migration list) instead of migrating each
 * store: a copy must be exactly what migrating at that moment gives — same schema, same rows — except
 * for its own store id.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { configureConnection, migrateInPlace, openMemoryStore } from '../../../src/core/store/memoryStore';
import { MIGRATIONS } from '../../../src/core/store/migrations';
import type { Migration } from '../../../src/core/store/migrations';
import { SqlDatabase } from '../../../src/core/store/sqlDatabase';
import { createEngineDatabase } from '../../../src/core/store/sqlEngine';
import type { SqlReader } from '../../../src/core/store/storeTypes';

/** Schema and every row of every table (store id left out), as one comparable text. */
function contents(db: SqlReader): string {
  const objects = db.all<{ type: string; name: string; sql: string | null }>("SELECT type, name, sql FROM sqlite_master ORDER BY type, name");
  const rows = objects.filter((o) => o.type === 'table').map((o) => {
    const all = db.all<Record<string, unknown>>(`SELECT * FROM "${o.name}"`).filter((r) => r.key !== 'store_id');
    const text = all.map((r) => JSON.stringify(r, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))).sort();
    return `${o.name}: ${text.join('\n')}`;
  });
  return `${JSON.stringify(objects)}\n${rows.join('\n')}`;
}

async function migratedNow(clock: ManualClock, migrations: readonly Migration[]): Promise<{ text: string; storeId: string }> {
  const db = new SqlDatabase(await createEngineDatabase());
  try {
    configureConnection(db);
    migrateInPlace(db, clock, migrations);
    const storeId = db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'store_id'")?.value ?? '';
    return { text: contents(db), storeId };
  } finally {
    db.close();
  }
}

describe('in-memory stores from a migrated image', () => {
  for (const [name, migrations] of [['every migration', MIGRATIONS], ['an older schema (the first three)', MIGRATIONS.slice(0, 3)]] as const) {
    it(`${name}: a store opened later equals one migrated at that time, with its own store id`, async () => {
      const clock = new ManualClock(Date.UTC(2026, 0, 1));
      const first = await openMemoryStore({ clock, migrations });
      clock.set(Date.UTC(2026, 5, 15, 12, 30));
      const second = await openMemoryStore({ clock, migrations });
      try {
        const expected = await migratedNow(clock, migrations);
        assert.equal(second.read(contents), expected.text);
        assert.match(expected.text, /2026-06-15T12:30:00\.000Z/, 'the comparison covers the migration time');
        assert.notEqual(second.read(contents), first.read(contents), 'the first store keeps its own time');
        const ids = new Set([first.storeId, second.storeId, expected.storeId]);
        assert.equal(ids.size, 3, 'every store has its own id');
        for (const id of ids) assert.match(id, /^[0-9a-f-]{36}$/);
      } finally {
        await first.close();
        await second.close();
      }
    });
  }

  it('a write to one store does not reach a store opened from the same image later', async () => {
    const clock = new ManualClock();
    const a = await openMemoryStore({ clock });
    await a.write('test', (w) => w.run("INSERT INTO memories (id, content, created_at, updated_at) VALUES ('m1', 'x', 't', 't')"));
    const b = await openMemoryStore({ clock });
    try {
      assert.equal(b.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 0);
      assert.equal(a.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a failing migration fails every open with its own error (no half-built image is kept)', async () => {
    let attempts = 0;
    const broken: readonly Migration[] = [...MIGRATIONS.slice(0, 1), { version: 999, name: 'broken', up: () => { attempts += 1; throw new Error('migration 999 failed'); } }];
    for (let i = 0; i < 2; i++) await assert.rejects(openMemoryStore({ migrations: broken }), /migration 999 failed/);
    assert.equal(attempts, 2, 'each open ran the migrations again');
  });
});
