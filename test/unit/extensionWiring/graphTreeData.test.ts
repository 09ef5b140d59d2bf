import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { systemClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { readMemorySettings } from '../../../src/extension/config/memorySettings';
import { aspectChildren, entityChildren, entityMemories, entityNode, PINNED_SECTION_ID, relationChildren, rootNodes } from '../../../src/extension/graphTreeData';
import type { GraphNode } from '../../../src/extension/graphTreeData';
import { rememberText, setEntityPinned } from '../../../src/extension/memoryActions';
import { MemoryRuntime } from '../../../src/extension/runtime/memoryRuntime';
import { makeTempDir } from '../helpers/tempDir';

/** Extraction runs on the runtime's job worker; poll (poking it) until the entity exists. */
async function waitForEntity(rt: MemoryRuntime, name: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const id = rt.store.read((db) => (db.hasTable('entities') ? db.get<{ id: string }>('SELECT id FROM entities WHERE canonical_name = ?', [name])?.id : undefined));
    if (id) return id;
    if (Date.now() > deadline) assert.fail(`${name} was not extracted within 10 s`);
    rt.poke();
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('graph tree nodes from the store', () => {
  let rt: MemoryRuntime;
  let temp: { dir: string; cleanup: () => void };

  before(async () => {
    temp = makeTempDir('am-tree-');
    const settings = readMemorySettings((k) => (k === 'models.embeddingModel' ? join(temp.dir, 'none') : undefined));
    rt = await MemoryRuntime.open({ paths: { storeDir: join(temp.dir, 'store'), bundledModelsDir: join(temp.dir, 'm'), cacheDir: join(temp.dir, 'c') }, logger: silentLogger, clock: systemClock }, settings, undefined);
  });

  after(async () => {
    await rt.close();
    temp.cleanup();
  });

  it('has no roots while the graph is empty (the view shows its welcome)', () => {
    assert.deepEqual(rt.store.read((db) => rootNodes(db)), []);
  });

  it('lists a Pinned section first, then one section per entity type', async () => {
    await rememberText(rt, 'We decided to use Redis to cache each reading list page.');
    await rememberText(rt, 'The reading list API uses Redis as its cache and depends on PostgreSQL.');
    await waitForEntity(rt, 'postgresql');
    const roots = rt.store.read((db) => rootNodes(db));
    assert.equal(roots[0]?.label, 'Pinned');
    assert.equal(roots[0]?.id, `${PINNED_SECTION_ID}:none`, 'an empty Pinned section has its own id');
    const labels = roots.slice(1).map((r) => r.label);
    assert.deepEqual(labels, [...labels].sort(), 'types are sorted');
    assert.ok(labels.includes('tool'));
  });

  it('puts a pinned entity in the Pinned section and expands it into aspects, attributes and relations', async () => {
    const id = await waitForEntity(rt, 'redis');
    await setEntityPinned(rt, 'redis', true);
    const roots = rt.store.read((db) => rootNodes(db));
    const pinned = roots[0];
    assert.ok(pinned?.kind === 'section' && pinned.id === PINNED_SECTION_ID);
    assert.deepEqual(pinned.entities.map((e) => e.id), [id]);
    const node = entityNode(pinned.entities[0]!, pinned.id) as Extract<GraphNode, { kind: 'entity' }>;
    assert.match(node.description, /^tool · 2 mentions$/);
    const children = rt.store.read((db) => entityChildren(db, id, node.id));
    const aspect = children.find((c): c is Extract<GraphNode, { kind: 'aspect' }> => c.kind === 'aspect');
    assert.ok(aspect, JSON.stringify(children));
    assert.match(aspect.description, /^weight \d\.\d\d · \d+ attributes?$/);
    const attrs = rt.store.read((db) => aspectChildren(db, aspect.aspectId, id, aspect.id));
    assert.ok(attrs.some((a) => a.kind === 'attribute' && a.memoryId !== null));
    const relGroup = children.find((c) => c.kind === 'relations');
    assert.ok(relGroup, 'redis has relations');
    const rels = rt.store.read((db) => relationChildren(db, id, relGroup.id));
    assert.ok(rels.every((r) => r.kind === 'relation' && /^[←→] /.test(r.label)));
    assert.equal(rt.store.read((db) => entityMemories(db, id)).length, 2);
  });
});
