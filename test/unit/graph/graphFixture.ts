import { ManualClock, isoFromMs } from '../../../src/core/clock';
import { graphContext } from '../../../src/core/graph/graphApply';
import type { GraphWriteContext } from '../../../src/core/graph/graphWriteTypes';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

/** A fresh in-memory store, a manual clock and counter ids, for graph tests. */
export interface GraphFixture {
  readonly store: MemoryStore;
  readonly clock: ManualClock;
  ctx(actor?: string, reason?: string): GraphWriteContext;
  memory(content: string, createdAtMs?: number): Promise<string>;
  count(sql: string, params?: (string | number | null)[]): number;
}

export async function graphFixture(): Promise<GraphFixture> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const store = await openMemoryStore({ clock });
  let n = 0;
  const newId = () => `id-${String(++n).padStart(4, '0')}`;
  return {
    store,
    clock,
    ctx: (actor = 'test', reason = 'unit test') => graphContext({ actor, reason, clock, newId }),
    memory: (content, createdAtMs) => store.write('remember', (db) => insertMemory(db, { content, id: newId(), createdAt: isoFromMs(createdAtMs ?? clock.now()) }).id),
    count: (sql, params = []) => store.read((db) => db.get<{ n: number }>(sql, params)?.n ?? 0),
  };
}
