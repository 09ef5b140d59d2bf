import * as assert from 'node:assert/strict';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { DEFAULT_REDACTION_CONFIG } from '../../../src/core/config/redactionConfig';
import { resolveTeamConfig } from '../../../src/core/config/teamConfig';
import { silentLogger } from '../../../src/core/logger';
import { countMemories, insertMemory } from '../../../src/core/memory/memoryRecords';
import { openStore } from '../../../src/core/store/openStore';
import { outboxSize } from '../../../src/core/team/teamOutbox';
import { readTeamState } from '../../../src/core/team/teamState';
import { TeamSync } from '../../../src/core/team/teamSync';
import { spawnChild, waitFor } from '../helpers/childProcess';
import { makeTempDir } from '../helpers/tempDir';
import { startTeamFixture } from '../helpers/teamFixture';
import type { TeamFixture } from '../helpers/teamFixture';

const CHILD = 'test/unit/helpers/teamChild.ts';

/** Runs a team client child as `role` and SIGKILLs it once `lines` lines matching `what` were printed. */
async function killAfter(fx: TeamFixture, role: string, args: readonly string[], what: string, lines: number): Promise<void> {
  const run = spawnChild(CHILD, args, { ...process.env, PGPASSWORD: fx.passwords.get(role) ?? '' });
  try {
    await waitFor(run.lines, (l) => l.filter((x) => x === what).length >= lines || l.includes('done'), 60_000);
  } catch (e) {
    run.child.kill('SIGKILL');
    throw new Error(`${String(e)}; stderr: ${run.stderr()}`);
  }
  assert.ok(!run.lines.includes('done'), `the child finished before the kill (${run.lines.length} lines)`);
  run.child.kill('SIGKILL');
  assert.equal(await run.exited, null);
}

async function reopen(dir: string, fx: TeamFixture, role: string) {
  const store = await openStore({ dir, logger: silentLogger, config: { lockTimeoutMs: 60_000 } });
  const password = fx.passwords.get(role);
  const sync = new TeamSync({ store, clock: new ManualClock(), logger: silentLogger, config: resolveTeamConfig({ pullBatch: 50 }), redaction: DEFAULT_REDACTION_CONFIG, jobs: DEFAULT_JOBS_CONFIG, extract: false, password: () => Promise.resolve(password) });
  return { store, sync };
}

describe('team memory: a client killed with -9 (real processes, real server)', function () {
  this.timeout(180_000);
  let fx: TeamFixture;
  const temps: (() => void)[] = [];

  before(async () => { fx = await startTeamFixture(['erin', 'frank']); });
  after(async () => {
    await fx?.close();
    for (const t of temps.splice(0)) t();
  });

  it('mid-push: the reopened store pushes the rest, the server holds every memory once', async () => {
    const tmp = makeTempDir('agent-memory-team-push-');
    temps.push(tmp.cleanup);
    const project = 'crash-push';
    await killAfter(fx, 'erin', ['push', tmp.dir, fx.pg.url('erin'), project, '400'], 'acked', 3);
    const before = (await fx.serverRows(project)).length;
    assert.ok(before >= 60 && before < 400, `a part was pushed before the kill (${before})`);
    const { store, sync } = await reopen(tmp.dir, fx, 'erin');
    try {
      assert.ok(store.read((db) => outboxSize(db)) > 0);
      await sync.syncOnce();
      assert.equal(store.read((db) => outboxSize(db)), 0);
      const rows = await fx.serverRows(project);
      assert.equal(rows.length, 400);
      assert.equal(new Set(rows.map((r) => r.id)).size, 400);
      assert.equal(new Set(rows.map((r) => r.content)).size, 400);
    } finally {
      await sync.stop();
      await store.close();
    }
  });

  it('mid-pull: the reopened store resumes from its cursor and holds every memory exactly once', async () => {
    const project = 'crash-pull';
    const seed = await fx.client('frank', [project]);
    await seed.store.write('seed', (db) => { for (let i = 0; i < 600; i++) insertMemory(db, { content: `crash pull memory ${i}`, project, createdAt: '2026-06-01T00:00:00Z' }); });
    await seed.sync.syncOnce();
    const tmp = makeTempDir('agent-memory-team-pull-');
    temps.push(tmp.cleanup);
    await killAfter(fx, 'erin', ['pull', tmp.dir, fx.pg.url('erin'), project], 'pulled', 2);
    const { store, sync } = await reopen(tmp.dir, fx, 'erin');
    try {
      const partial = store.read((db) => countMemories(db, { project }));
      assert.ok(partial >= 100 && partial < 600, `part was pulled before the kill (${partial})`);
      await sync.syncOnce();
      assert.equal(store.read((db) => countMemories(db, { project })), 600);
      assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(DISTINCT content) AS n FROM memories WHERE project = ?', [project])?.n), 600);
      const maxSeq = (await fx.serverRows(project)).reduce((m, r) => Math.max(m, Number(r.seq)), 0);
      assert.equal(store.read((db) => readTeamState(db).cursor), maxSeq);
    } finally {
      await sync.stop();
      await store.close();
    }
  });
});
