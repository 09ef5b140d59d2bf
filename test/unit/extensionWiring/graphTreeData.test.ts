import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { systemClock } from '../../../src/core/clock';
import { noProgress } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { entityMemories } from '../../../src/core/graph/entityTreeQueries';
import { aspectChildren, entityChildren, entityNode, entityTooltipFacts, entityTooltipMarkdown, PINNED_SECTION_ID, relationChildren, rootNodes } from '../../../src/extension/tree/graphTreeData';
import type { GraphNode } from '../../../src/extension/tree/graphTreeData';
import { rememberText, setEntityPinned } from '../../../src/extension/actions/memoryActions';
import { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import { makeTempDir } from '../helpers/tempDir';

/** Extraction runs on the runtime's job worker; poll (poking it) until the entity exists. */
async function waitForEntity(rt: MemoryEngine, name: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const id = rt.store.read((db) => db.get<{ id: string }>('SELECT id FROM entities WHERE canonical_name = ?', [name])?.id);
    if (id) return id;
    if (Date.now() > deadline) assert.fail(`${name} was not extracted within 10 s`);
    rt.poke();
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('graph tree nodes from the store', () => {
  let rt: MemoryEngine;
  let temp: { dir: string; cleanup: () => void };

  before(async () => {
    temp = makeTempDir('am-tree-');
    const settings = readMemorySettings((k) => (k === 'models.embeddingModel' ? join(temp.dir, 'none') : undefined));
    rt = await MemoryEngine.open({ paths: { storeDir: join(temp.dir, 'store'), bundledModelsDir: join(temp.dir, 'm'), cacheDir: join(temp.dir, 'c') }, logger: silentLogger, clock: systemClock, llm: undefined, progress: noProgress }, settings);
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
    // A short description a narrow sidebar does not cut; the advice is in the tooltip.
    assert.ok(roots[0]?.kind === 'section');
    assert.equal(roots[0].description, 'none');
    assert.match(roots[0].tooltip, /^No pinned entities\. Pin one .* to keep it focal in every recall\.$/);
    const labels = roots.slice(1).map((r) => r.label);
    assert.deepEqual(labels, [...labels].sort(), 'types are sorted');
    assert.ok(labels.includes('tool'));
    const icons = roots.map((r) => (r.kind === 'section' ? r.icon : ''));
    assert.equal(new Set(icons).size, icons.length, `one icon per section: ${icons.join(', ')}`);
    assert.equal(icons[labels.indexOf('tool') + 1], 'tools');
  });

  it('puts a pinned entity in the Pinned section and expands it into aspects, attributes and relations', async () => {
    const id = await waitForEntity(rt, 'redis');
    await setEntityPinned(rt, 'redis', true);
    const roots = rt.store.read((db) => rootNodes(db));
    const pinned = roots[0];
    assert.ok(pinned?.kind === 'section' && pinned.id === PINNED_SECTION_ID);
    assert.equal(pinned.description, '1 entity');
    assert.equal(pinned.tooltip, '1 pinned entity: always focal in recall.');
    assert.deepEqual(pinned.entities.map((e) => e.id), [id]);
    const node = entityNode(pinned.entities[0]!, pinned.id) as Extract<GraphNode, { kind: 'entity' }>;
    assert.match(node.description, /^tool · 2 mentions · pinned$/);
    assert.equal(node.icon, 'tools', 'the type icon, also when pinned');
    const facts = rt.store.read((db) => entityTooltipFacts(db, id));
    assert.ok(facts && facts.aspects > 0 && facts.relations > 0, JSON.stringify(facts));
    assert.deepEqual({ type: facts.type, mentions: facts.mentions, pinned: facts.pinned }, { type: 'tool', mentions: 2, pinned: true });
    assert.equal(entityTooltipMarkdown(facts), [`**${facts.name}**`, '', `tool · 2 mentions · ${facts.aspects} aspect${facts.aspects === 1 ? '' : 's'} · ${facts.attributes} attribute${facts.attributes === 1 ? '' : 's'} · ${facts.relations} relation${facts.relations === 1 ? '' : 's'}`, '', 'Pinned: always focal in recall.'].join('\n'));
    assert.equal(rt.store.read((db) => entityTooltipFacts(db, 'no-such-entity')), undefined);
    assert.equal(entityTooltipMarkdown({ ...facts, name: 'a*b_[c]', pinned: false }).split('\n')[0], '**a\\*b\\_\\[c\\]**', 'names are escaped');
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
