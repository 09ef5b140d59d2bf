import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { connectKnowledge } from '../../../src/extension/knowledge/connectKnowledge';
import type { KnowledgeRuntime } from '../../../src/extension/knowledge/connectKnowledge';
import { SwitchableKnowledgeSource } from '../../../src/extension/knowledge/switchableSource';

const clock = new ManualClock(Date.parse('2026-11-29T12:00:00Z'));
const T = '2026-11-01T00:00:00.000Z';

describe('Knowledge panel runtime connection', () => {
  it('opens the runtime lazily on first use and follows a reopened store', async () => {
    const a = await openMemoryStore({ clock });
    const b = await openMemoryStore({ clock });
    await b.write('seed', (w) => w.run("INSERT INTO entities (id, name, canonical_name, created_at, updated_at) VALUES ('e1', 'Other store', 'other store', ?, ?)", [T, T]));
    const listeners: ((rt: KnowledgeRuntime) => void)[] = [];
    let opened = 0;
    const rtA: KnowledgeRuntime = { store: a, recallDeps: () => ({ clock }) };
    const switchable = new SwitchableKnowledgeSource();
    const conn = connectKnowledge(switchable, {
      runtime: async () => { opened++; return rtA; },
      onDidOpenRuntime: (l) => { listeners.push(l); return { dispose: () => undefined }; },
      clock,
    });
    assert.equal(opened, 0, 'nothing opens before the panel asks');
    assert.equal((await switchable.listEntities({ query: '', entityType: null, offset: 0, limit: 5 })).total, 0);
    assert.equal(opened, 1);
    for (const l of listeners) l({ store: b, recallDeps: () => ({ clock }) });
    const page = await switchable.listEntities({ query: '', entityType: null, offset: 0, limit: 5 });
    assert.deepEqual(page.entities.map((e) => e.name), ['Other store']);
    conn.dispose();
    await assert.rejects(switchable.stats(), /not open yet|store/);
    await a.close();
    await b.close();
  });
});
