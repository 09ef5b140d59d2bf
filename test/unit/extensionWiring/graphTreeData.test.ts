import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { systemClock } from '../../../src/core/clock';
import { noProgress } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { entityMemories } from '../../../src/core/graph/entityTreeQueries';
import { aspectChildren, attributeDescription, attributeTooltip, entityChildren, entityNode, entityTooltipFacts, entityTooltipMarkdown, PINNED_SECTION_ID, relationChildren, rootNodes } from '../../../src/extension/tree/graphTreeData';
import type { AttributeView } from '../../../src/shared/knowledgeProtocolTypes';
import type { GraphNode } from '../../../src/extension/tree/graphTreeData';
import { applyGraphOp, graphContext } from '../../../src/core/graph/graphApply';
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
    assert.equal(entityTooltipMarkdown(facts).split('\n**Current**')[0], [`**${facts.name}**`, '', `tool · 2 mentions · ${facts.aspects} aspect${facts.aspects === 1 ? '' : 's'} · ${facts.attributes} attribute${facts.attributes === 1 ? '' : 's'} · ${facts.relations} relation${facts.relations === 1 ? '' : 's'}`, '', 'Pinned: always focal in recall.', ''].join('\n'));
    assert.match(entityTooltipMarkdown(facts), /\n\*\*Current\*\*\n\n- We decided to use Redis .* \(since \d{4}-\d\d-\d\d\)$/);
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

  it('leaves out an entity with nothing attached (no aspect, no relation), as the Knowledge panel list does, unless it is pinned', async () => {
    // Only a mention: what the demo's "POST /books/{id}/read" or "read_at" were ("0a 0t 0r" in the issue).
    await rt.store.write('t', (db) => applyGraphOp(db, graphContext({ actor: 'test', reason: 'unit test', clock: systemClock }), { op: 'upsert_entity', name: 'read_at', type: 'symbol' }));
    const names = (): string[] => rt.store.read((db) => rootNodes(db)).flatMap((r) => (r.kind === 'section' && r.id !== PINNED_SECTION_ID ? r.entities.map((e) => e.name) : []));
    assert.ok(rt.store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entities WHERE canonical_name = 'read_at'"))?.n === 1, 'the bare entity exists');
    assert.ok(!names().includes('read_at'), `not in the tree: ${names().join(', ')}`);
    assert.ok(names().includes('Redis'), 'entities with knowledge stay');
    await setEntityPinned(rt, 'read_at', true);
    assert.ok(names().includes('read_at'), 'a pinned one is shown');
    await setEntityPinned(rt, 'read_at', false);
  });
});

/** Issue #27: the tree and the hover say what is current, since when, from where, and keep the old values as history. */
describe('graph tree: current values first, older values as history', () => {
  const base: AttributeView = { id: 'a', kind: 'attribute', status: 'active', importance: 0.5, content: 'SHORT_BOOK_PAGES = 220', supersededBy: null,
    currentnessNote: '220 since 2026-08-29; was 180 (2026-08-04)', observedAt: '2026-08-29T10:00:00.000Z', source: 'We raised SHORT_BOOK_PAGES to 220.', team: null };
  const old: AttributeView = { ...base, id: 'b', status: 'superseded', content: 'SHORT_BOOK_PAGES = 180', supersededBy: 'a',
    currentnessNote: 'Was current from 2026-08-04 until 2026-08-29; now: SHORT_BOOK_PAGES = 220', observedAt: '2026-08-04T10:00:00.000Z', source: 'Short books have at most 180 pages.' };

  const table: readonly [string, AttributeView, RegExp, RegExp][] = [
    ['a current value that replaced older ones', base, /^220 since 2026-08-29; was 180 \(2026-08-04\)$/, /Current; stated 2026-08-29\.\n\nSource: We raised SHORT_BOOK_PAGES to 220\.$/],
    ['a current value with no history', { ...base, currentnessNote: null }, /^since 2026-08-29$/, /^SHORT_BOOK_PAGES = 220\n\nCurrent; stated 2026-08-29\./],
    ['a superseded value', old, /^history · Was current from 2026-08-04 until 2026-08-29; now: SHORT_BOOK_PAGES = 220$/, /History \(superseded\); stated 2026-08-04\./],
    ['a superseded constraint without a known replacement', { ...old, kind: 'constraint', currentnessNote: null }, /^constraint · history · from 2026-08-04$/, /History/],
    ['a deleted value', { ...old, status: 'deleted', currentnessNote: 'Deleted.' }, /^deleted$/, /Deleted; stated/],
  ];
  for (const [what, view, description, tooltip] of table) {
    it(`describes ${what}`, () => {
      assert.match(attributeDescription(view), description);
      assert.match(attributeTooltip(view), tooltip);
    });
  }

  it('the hover lists current facts with their date, history and source, and counts the older values', () => {
    const md = entityTooltipMarkdown({ id: 'e', name: 'SHORT_BOOK_PAGES', type: 'config', mentions: 2, aspects: 1, attributes: 2, relations: 0, pinned: false,
      current: [{ content: base.content, note: base.currentnessNote, observedAt: base.observedAt, source: base.source }], history: 1 } as Parameters<typeof entityTooltipMarkdown>[0]);
    assert.match(md, /\*\*Current\*\*\n\n- SHORT\\_BOOK\\_PAGES = 220: 220 since 2026\\-08\\-29; was 180 \\\(2026\\-08\\-04\\\) — from "We raised SHORT\\_BOOK\\_PAGES to 220\\."/);
    assert.match(md, /1 older value kept as history/);
  });
});
