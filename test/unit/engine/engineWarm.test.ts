import { strict as assert } from 'node:assert';
import { lexicalIndexFor } from '../../../src/core/recall/lexicalIndex';
import { vectorIndexFor } from '../../../src/core/recall/recallService';
import { openTestStore } from '../feedback/graphFixture';
import { engineOnStore } from '../helpers/testEngine';
import { fakeEmbedder } from '../memory/fakeEmbedder';

describe('engine warm-up (what the first recall would otherwise wait for)', () => {
  it('loads the embedding model and the vector index before any recall', async () => {
    const { store, clock } = await openTestStore();
    try {
      const writer = engineOnStore(store, clock, {}, { embedder: fakeEmbedder(8, 'warm-model') });
      for (const text of ['Billing runs on PostgreSQL.', 'The shelf stores lists in SQLite.', 'Deploys go through Kubernetes.']) await writer.remember({ content: text });
      await writer.settle();
      const model = fakeEmbedder(8, 'warm-model');
      const engine = engineOnStore(store, clock, {}, { embedder: model });
      assert.equal(engine.embedder?.state.state, 'notLoaded');
      assert.equal(vectorIndexFor(store, 'warm-model', 8).size, 0, 'nothing loaded the index yet');
      await engine.warm();
      assert.equal(engine.embedder?.state.state, 'ready', 'the model answered once');
      assert.equal(model.calls, 1);
      assert.equal(vectorIndexFor(store, 'warm-model', 8).size, 3, 'every stored vector is in the index');
    } finally {
      await store.close();
    }
  });

  it('does nothing without an embedding model', async () => {
    const { store, clock } = await openTestStore();
    try {
      const engine = engineOnStore(store, clock);
      await engine.warm();
      assert.equal(engine.embedder, undefined);
    } finally {
      await store.close();
    }
  });

  it('with lexicalIndexNow builds the whole lexical index before it returns (recall --stdin), with or without a model', async () => {
    for (const embedder of [fakeEmbedder(8, 'warm-model'), undefined]) {
      const { store, clock } = await openTestStore();
      try {
        const writer = engineOnStore(store, clock, {}, embedder ? { embedder } : {});
        for (const text of ['Billing runs on PostgreSQL.', 'The shelf stores lists in SQLite.', 'Deploys go through Kubernetes.']) await writer.remember({ content: text });
        await writer.settle();
        const engine = engineOnStore(store, clock, {}, embedder ? { embedder } : {});
        await engine.warm({ lexicalIndexNow: true });
        const index = lexicalIndexFor(store);
        assert.equal(index.docCount, 3, 'every memory is in the index');
        assert.ok(index.postings('postgresql'), 'a word of a memory has its postings');
      } finally {
        await store.close();
      }
    }
  });
});
