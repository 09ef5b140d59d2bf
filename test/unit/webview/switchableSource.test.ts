import { strict as assert } from 'node:assert';
import { SwitchableKnowledgeSource } from '../../../src/extension/knowledge/switchableSource';
import { isMemoryError } from '../../../src/core/errors';
import { FakeKnowledgeSource } from './fakeKnowledgeSource';
import { entity } from './fixtures';

describe('Knowledge panel switchable data source', () => {
  it('says clearly that the store is not open when nothing is connected', async () => {
    const s = new SwitchableKnowledgeSource();
    await assert.rejects(s.stats(), (e: unknown) => isMemoryError(e, 'E_STORE_IO') && /not open yet/.test((e as Error).message));
  });

  it('opens lazily once through the opener, even for concurrent calls', async () => {
    const s = new SwitchableKnowledgeSource();
    let opened = 0;
    s.setOpener(async () => { opened++; return new FakeKnowledgeSource([entity(1)]); });
    const [a, b] = await Promise.all([s.listEntities({ query: '', entityType: null, offset: 0, limit: 5 }), s.stats()]);
    assert.equal(a.total, 1);
    assert.ok(b.counts);
    assert.equal(opened, 1);
  });

  it('forwards change events of the current source and fires on connect and disconnect', () => {
    const s = new SwitchableKnowledgeSource();
    const inner = new FakeKnowledgeSource([entity(1)]);
    let fired = 0;
    s.onDidChange(() => { fired++; });
    s.set(inner);
    inner.fire();
    s.clear(inner);
    inner.fire();
    assert.equal(fired, 3);
  });
});

describe('Knowledge panel switchable data source, opened elsewhere', () => {
  it('uses the source that opening connected, and says so clearly when nothing was connected', async () => {
    const s = new SwitchableKnowledgeSource();
    s.setOpenerBySideEffect(async () => { s.set(new FakeKnowledgeSource([entity(1), entity(2)])); });
    assert.equal((await s.listEntities({ query: '', entityType: null, offset: 0, limit: 5 })).total, 2);
    const t = new SwitchableKnowledgeSource();
    t.setOpenerBySideEffect(async () => undefined);
    await assert.rejects(t.stats(), /not connected/);
  });
});
