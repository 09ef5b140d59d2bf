import * as assert from 'node:assert/strict';
import { isoFromMs } from '../../../src/core/clock';
import { forgetMemory, softDeleteMemory } from '../../../src/core/memory/forget';
import { contentHash } from '../../../src/core/memory/memoryRecords';
import { remember, defaultRememberDeps } from '../../../src/core/memory/remember';
import { upsertMemoryVector } from '../../../src/core/models/vectorStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { shareProject } from '../../../src/core/team/teamAdmin';
import { startTeamFixture } from '../helpers/teamFixture';
import type { TeamClient, TeamFixture } from '../helpers/teamFixture';

const MODEL = 'test-model';

async function rememberIn(c: TeamClient, project: string, content: string): Promise<string> {
  return (await remember(c.store, { content, project }, defaultRememberDeps(c.clock, { enqueue: { embed: false, extract: false, hints: false } }))).id;
}

const marked = (s: MemoryStore): number => s.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_dirty')?.n ?? -1);

describe('team push scan against a real PostgreSQL server: every change still reaches it', function () {
  this.timeout(120_000);
  let fx: TeamFixture;

  before(async () => { fx = await startTeamFixture(['alice', 'bob']); });
  after(async () => { await fx?.close(); });

  it('remembered, edited, re-embedded, soft-deleted, forgotten and newly shared memories arrive; idle syncs queue nothing and write no scan', async () => {
    const a = await fx.client('alice', ['scan-web'], { embeddingModelId: MODEL });
    const b = await fx.client('bob', ['scan-web'], { embeddingModelId: MODEL });
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await rememberIn(a, 'scan-web', `The scan test fact number ${i} about the ingest queue.`));
    assert.equal((await a.sync.syncOnce()).push.sent, 6, 'the first push (a full pass) queues them all');
    assert.equal((await b.sync.syncOnce()).pull.inserted, 6);

    // Idle: nothing queued, and no scan write (only the marks the acknowledgements left are cleared once).
    await a.sync.syncOnce();
    const labels: string[] = [];
    const sub = a.store.onDidChange((ch) => { labels.push(...ch.labels); });
    const idle = await a.sync.syncOnce();
    sub.dispose();
    assert.equal(idle.push.queued, 0);
    assert.equal(idle.push.sent, 0);
    assert.ok(!labels.includes('team.scan'), `no scan write: ${labels.join(', ')}`);
    // Bob's replicas were marked by his pull; his scan looks at them and pushes nothing of Alice's.
    assert.ok(marked(b.store) > 0);
    assert.equal((await b.sync.syncOnce()).push.queued, 0);
    assert.equal(marked(b.store), 0);

    const [m0, m1, m2, m3] = ids as [string, string, string, string];
    const edited = 'The scan test fact number 0, corrected: the ingest queue is Kafka.';
    await a.store.write('memory.edit', (w) => w.run('UPDATE memories SET content = ?, content_hash = ?, updated_at = ? WHERE id = ?', [edited, contentHash(edited), isoFromMs(a.clock.now()), m0]));
    const hash1 = a.store.read((db) => db.get<{ h: string }>('SELECT content_hash AS h FROM memories WHERE id = ?', [m1])?.h ?? '');
    await a.store.write('embed', (w) => upsertMemoryVector(w, MODEL, { memoryId: m1, contentHash: hash1, vector: new Float32Array([0.6, 0.8]) }, isoFromMs(a.clock.now())));
    await softDeleteMemory(a.store, m2, a.clock);
    await forgetMemory(a.store, m3, a.clock);
    const fresh = await rememberIn(a, 'scan-web', 'A fact remembered after the first push.');
    const changes = await a.sync.syncOnce();
    assert.equal(changes.push.queued, 5);
    assert.equal(changes.push.sent, 5);

    const rows = new Map((await fx.serverRows('scan-web')).map((r) => [r.id, r]));
    assert.equal(rows.get(m0)?.content, edited, 'the edit arrived');
    assert.ok(rows.get(m1)?.vector, 'the vector computed after the push arrived');
    assert.equal(rows.get(m2)?.deleted, true, 'the soft delete became a tombstone');
    assert.equal(rows.get(m3)?.deleted, true, 'the forgotten memory became a tombstone');
    assert.equal(rows.get(fresh)?.content, 'A fact remembered after the first push.');
    assert.equal(rows.size, 7);

    // A project shared after its memories were written (no trigger saw them as shared): the full pass finds them.
    assert.equal((await a.sync.syncOnce()).push.queued, 0, 'the acknowledgements\' marks looked at, nothing queued');
    const older = await rememberIn(a, 'scan-api', 'The API project decided on gRPC before it was shared.');
    assert.equal(marked(a.store), 0, 'a memory of a project not shared is not marked');
    assert.equal((await a.sync.syncOnce()).push.sent, 0);
    await shareProject(a.store, 'scan-api', true);
    assert.equal((await a.sync.syncOnce()).push.sent, 1);
    assert.deepEqual((await fx.serverRows('scan-api')).map((r) => r.id), [older]);
    assert.equal((await a.sync.syncOnce()).push.queued, 0, 'and idle again');
  });
});
