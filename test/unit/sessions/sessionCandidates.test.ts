import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSessionConfig } from '../../../src/core/config/sessionConfig';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { gatherCandidates, RECENT_CANDIDATES_SQL } from '../../../src/core/sessions/sessionCandidates';
import { openMemoryStore } from '../../../src/core/store/memoryStore';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00.000Z');

describe('session-start candidates (sessionCandidates.ts)', () => {
  it('takes the most recent live memories, ties by id, from the created_at index rather than a sort of the whole table', async () => {
    const store = await openMemoryStore({ clock: new ManualClock(NOW) });
    try {
      await store.write('seed', (w) => {
        for (let i = 0; i < 40; i++) {
          // pairs share a timestamp, so the id tie-break decides their order
          insertMemory(w, { id: `m${String(i).padStart(2, '0')}`, content: `note ${i}`, importance: 0.8, createdAt: new Date(NOW - Math.floor(i / 2) * DAY).toISOString() });
        }
        w.run("UPDATE memories SET is_deleted = 1, deleted_at = created_at WHERE id = 'm00'");
      });
      const config = resolveSessionConfig({ candidatePoolLimit: 2 });
      const ids = store.read((db) => gatherCandidates(db, { agentId: 'default', project: null, focalEntityIds: [], pinnedEntityIds: [], nowMs: NOW, config })).map((c) => c.memoryId);
      // candidatePoolLimit × 3 = 6 rows read, the newest first; the deleted m00 is not among them
      assert.deepEqual(ids, ['m01', 'm02']);
      const plan = store.read((db) => db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${RECENT_CANDIDATES_SQL}`, ['default', 6]).map((r) => r.detail).join('; '));
      assert.match(plan, /idx_memories_created/);
      assert.doesNotMatch(plan, /TEMP B-TREE FOR ORDER BY/, 'no sort of every memory');
    } finally {
      await store.close();
    }
  });
});
