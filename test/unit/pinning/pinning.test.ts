import { strict as assert } from 'node:assert';
import { isoFromMs } from '../../../src/core/clock';
import { isMemoryError } from '../../../src/core/errors';
import { getPinnedEntities, pinEntity, unpinEntity } from '../../../src/core/pinning/pinning';
import { unionPinnedFocal } from '../../../src/core/pinning/pinnedFocal';
import { addEntity, openTestStore } from '../feedback/graphFixture';
import { makeService } from '../sessions/sessionFixture';
import { recallFocalResolver } from '../../../src/core/sessions/defaultResolvers';

describe('entity pinning', () => {
  it('pins and unpins an entity by name', async () => {
    const { store, clock } = await openTestStore();
    const id = await store.write('t', (db) => addEntity(db, clock.now(), 'Auth Service'));
    const r = await store.write('pin', (db) => pinEntity(db, 'default', 'auth service', isoFromMs(clock.now())));
    assert.deepEqual([r.entityId, r.pinned, r.changed], [id, true, true]);
    assert.deepEqual(store.read((db) => getPinnedEntities(db, 'default')), [{ id, name: 'Auth Service', pinnedAt: isoFromMs(clock.now()) }]);
    await store.write('unpin', (db) => unpinEntity(db, 'default', id, isoFromMs(clock.now())));
    assert.deepEqual(store.read((db) => getPinnedEntities(db, 'default')), []);
    await store.close();
  });

  it('is idempotent: a second pin keeps the first pinned_at, a second unpin changes nothing', async () => {
    const { store, clock } = await openTestStore();
    await store.write('t', (db) => addEntity(db, clock.now(), 'Billing'));
    const first = await store.write('pin', (db) => pinEntity(db, 'default', 'Billing', isoFromMs(clock.now())));
    clock.advance(60_000);
    const second = await store.write('pin', (db) => pinEntity(db, 'default', 'Billing', isoFromMs(clock.now())));
    assert.equal(second.changed, false);
    assert.equal(second.pinnedAt, first.pinnedAt);
    assert.equal(store.read((db) => getPinnedEntities(db, 'default')).length, 1);
    await store.write('unpin', (db) => unpinEntity(db, 'default', 'Billing', isoFromMs(clock.now())));
    assert.deepEqual(store.read((db) => db.all<{ op: string }>("SELECT op FROM graph_ops WHERE op IN ('pin', 'unpin') ORDER BY created_at, op").map((r) => r.op)), ['pin', 'unpin'], 'one audit row per real change');
    const again = await store.write('unpin', (db) => unpinEntity(db, 'default', 'Billing', isoFromMs(clock.now())));
    assert.equal(again.changed, false);
    await store.close();
  });

  it('lists the newest pin first', async () => {
    const { store, clock } = await openTestStore();
    await store.write('t', (db) => { addEntity(db, clock.now(), 'Alpha'); addEntity(db, clock.now(), 'Beta'); });
    await store.write('pin', (db) => pinEntity(db, 'default', 'Alpha', isoFromMs(clock.now())));
    clock.advance(1_000);
    await store.write('pin', (db) => pinEntity(db, 'default', 'Beta', isoFromMs(clock.now())));
    assert.deepEqual(store.read((db) => getPinnedEntities(db, 'default').map((p) => p.name)), ['Beta', 'Alpha']);
    await store.close();
  });

  it('is scoped: another agent neither sees nor can pin the entity', async () => {
    const { store, clock } = await openTestStore();
    await store.write('t', (db) => addEntity(db, clock.now(), 'Gamma', { agentId: 'other' }));
    await assert.rejects(store.write('pin', (db) => pinEntity(db, 'default', 'Gamma', isoFromMs(clock.now()))), (e: unknown) => isMemoryError(e, 'E_NOT_FOUND'));
    await store.write('pin', (db) => pinEntity(db, 'other', 'Gamma', isoFromMs(clock.now())));
    assert.deepEqual(store.read((db) => getPinnedEntities(db, 'default')), []);
    assert.equal(store.read((db) => getPinnedEntities(db, 'other')).length, 1);
    await store.close();
  });

  it('rejects an unknown entity with a clear coded error and writes nothing', async () => {
    const { store, clock } = await openTestStore();
    await assert.rejects(store.write('pin', (db) => pinEntity(db, 'default', 'Nope', isoFromMs(clock.now()))), /No entity named 'Nope'/);
    await store.close();
  });

  it('keeps pinned entities focal alongside the resolved ones (union, source unchanged)', async () => {
    const { store, clock } = await openTestStore();
    const [a, b] = await store.write('t', (db) => [addEntity(db, clock.now(), 'Pinned One'), addEntity(db, clock.now(), 'Project B', { type: 'project' })]);
    await store.write('pin', (db) => pinEntity(db, 'default', 'Pinned One', isoFromMs(clock.now())));
    const focal = store.read((db) => unionPinnedFocal(db, 'default', { entityIds: [b as string], entityNames: ['Project B'], source: 'project' }));
    assert.deepEqual(focal.entityIds, [a, b]);
    assert.deepEqual(focal.pinnedEntityIds, [a]);
    assert.equal(focal.source, 'project');
    const none = store.read((db) => unionPinnedFocal(db, 'default', { entityIds: [], entityNames: [], source: 'session_key' }));
    assert.deepEqual(none.entityIds, [a]);
    assert.equal(none.source, 'session_key');
    const dup = store.read((db) => unionPinnedFocal(db, 'default', { entityIds: [a as string], entityNames: ['Pinned One'], source: 'query' }));
    assert.deepEqual(dup.entityIds, [a]);
    await store.close();
  });
});

describe('pinned entities at session start', () => {
  it('are focal alongside the project-resolved entity, regardless of the project path', async () => {
    const { store, clock } = await openTestStore();
    const [pinned, project] = await store.write('t', (db) => [addEntity(db, clock.now(), 'Auth Service'), addEntity(db, clock.now(), 'webshop', { type: 'project', mentions: 3 })]);
    await store.write('pin', (db) => pinEntity(db, 'default', 'Auth Service', isoFromMs(clock.now())));
    const { service } = makeService(store, clock, { resolveFocal: recallFocalResolver });
    const withProject = await service.start({ sessionKey: 's1', project: '/home/dev/webshop' });
    assert.deepEqual(withProject.focal.entityIds, [pinned, project]);
    assert.deepEqual(withProject.focal.pinnedEntityIds, [pinned]);
    assert.equal(withProject.focal.source, 'project');
    const elsewhere = await service.start({ sessionKey: 's2', project: '/tmp/unrelated' });
    assert.deepEqual(elsewhere.focal.entityIds, [pinned]);
    assert.equal(elsewhere.focal.source, 'session_key');
    const byQuery = await service.start({ sessionKey: 's3', query: 'how does the webshop checkout work' });
    assert.deepEqual(byQuery.focal.entityIds, [pinned, project]);
    assert.equal(byQuery.focal.source, 'query');
    await store.close();
  });
});
