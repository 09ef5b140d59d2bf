import { strict as assert } from 'node:assert';
import type { Embedder } from '../../../src/core/models/embedder';
import { fakeEmbedder } from '../recall/fakeEmbedder';
import { addMemory, openTestStore } from '../feedback/graphFixture';
import { engineOnStore } from '../helpers/testEngine';
import { seqId } from '../sessions/sessionFixture';

function embedder(): Embedder {
  const f = fakeEmbedder(32, 'fake-maint');
  return { id: f.id, dims: f.dims, embed: (texts) => f.embed(texts), dispose: async () => undefined };
}

describe('maintenance tasks of other modules', () => {
  it('re-embeds stale vectors and scans for duplicates when an embedder is given', async () => {
    const { store, clock } = await openTestStore();
    const { loop } = engineOnStore(store, clock, {}, { embedder: embedder(), newId: seqId });
    assert.deepEqual(loop.maintenance.tasks().map((t) => t.id), ['decay-aspects', 'propagate-memory-status', 'backfill-hints', 'merge-entities', 'retry-dead-jobs', 'rebuild-fts', 'integrity-check', 'reembed-stale', 'find-duplicates-conflicts']);
    await store.write('t', (db) => {
      addMemory(db, clock.now(), { content: 'we deploy with esbuild on fridays' });
      addMemory(db, clock.now(), { content: 'we deploy with esbuild on fridays!' });
    });
    await store.write('hash', (db) => db.run("UPDATE memories SET content_hash = id WHERE content_hash IS NULL"));
    const r = await loop.maintenance.run(['reembed-stale', 'find-duplicates-conflicts']);
    assert.deepEqual(r.tasks.map((t) => [t.task, t.status]), [['reembed-stale', 'completed'], ['find-duplicates-conflicts', 'completed']], JSON.stringify(r.tasks));
    assert.equal(r.tasks[0]?.summary.embedded, 2);
    assert.equal(r.tasks[1]?.summary.scanned, 2);
    assert.equal(r.tasks[1]?.summary.mergeProposals, 1);
    await store.close();
  });

  it('leaves them out without an embedder', async () => {
    const { store, clock } = await openTestStore();
    const { loop } = engineOnStore(store, clock);
    assert.deepEqual(loop.maintenance.tasks().map((t) => t.id), ['decay-aspects', 'propagate-memory-status', 'backfill-hints', 'merge-entities', 'retry-dead-jobs', 'rebuild-fts', 'integrity-check']);
    await store.close();
  });
});
