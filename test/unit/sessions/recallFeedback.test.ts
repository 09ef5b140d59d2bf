import { strict as assert } from 'node:assert';
import { recall } from '../../../src/core/recall/recallService';
import { addAspect, addAttribute, addEntity, addMemory, openTestStore } from '../feedback/graphFixture';
import { makeService } from './sessionFixture';

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
    const found = await recall(store, { query: 'when do production deploys happen', session: 'r1', only: 'lexical' }, { clock });
    assert.equal(found[0]?.id, memory);
    const hits = store.read((db) => db.get<{ fts_hit_count: number; was_injected: number }>('SELECT fts_hit_count, was_injected FROM session_memories WHERE session_key = ? AND memory_id = ?', ['r1', memory]));
    assert.deepEqual([hits?.fts_hit_count, hits?.was_injected], [1, 1], 'the start row is kept (injected) and the hit counted');
    const r = await service.end('r1');
    assert.deepEqual([r?.feedback?.feedbackAspectsUpdated, r?.feedback?.feedbackFtsConfirmations], [1, 1]);
    assert.ok(Math.abs((store.read((db) => db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ?', [aspect])?.weight) ?? 0) - 0.52) < 1e-12);
    await store.close();
  });
});
