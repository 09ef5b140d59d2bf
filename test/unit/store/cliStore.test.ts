import { strict as assert } from 'node:assert';
import { runCli } from '../../../src/cli/run';
import { makeTempDir } from '../helpers/tempDir';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; } });
  return { code, out, err };
}

describe('cli remember, get and stats on a store folder', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(() => temp.cleanup());

  it('remembers, prints the id, and gets it back as JSON', async () => {
    const r = await cli(['--store', temp.dir, 'remember', '--type', 'decision', '--project', 'web', '--session', 's1', '--source-id', 'pr-7', '--created-at', '2026-02-03T04:05:06Z', 'We', 'decided', 'on', 'pnpm']);
    assert.equal(r.code, 0, r.err);
    const id = r.out.trim();
    assert.match(id, /^[0-9a-f-]{36}$/);
    const g = await cli(['--store', temp.dir, 'get', id, '--json']);
    assert.equal(g.code, 0, g.err);
    const m = JSON.parse(g.out) as Record<string, unknown>;
    assert.equal(m.content, 'We decided on pnpm');
    assert.equal(m.type, 'decision');
    assert.equal(m.project, 'web');
    assert.equal(m.sessionKey, 's1');
    assert.equal(m.sourceId, 'pr-7');
    assert.equal(m.createdAt, '2026-02-03T04:05:06.000Z');
  });

  it('prints the existing id for a duplicate and says so on stderr', async () => {
    const a = await cli(['--store', temp.dir, 'remember', 'Tabs, not spaces.']);
    const b = await cli(['--store', temp.dir, 'remember', 'tabs,  NOT spaces']);
    assert.equal(b.code, 0);
    assert.equal(b.out, a.out);
    assert.match(b.err, /already remembered/);
  });

  it('goes through the write path: secrets are redacted and the background jobs run before it returns', async () => {
    const r = await cli(['--store', temp.dir, 'remember', 'Deploy with password=hunter2hunter2 on the staging box']);
    assert.equal(r.code, 0, r.err);
    const g = await cli(['--store', temp.dir, 'get', r.out.trim(), '--json']);
    const m = JSON.parse(g.out) as Record<string, unknown>;
    assert.doesNotMatch(String(m.content), /hunter2/);
    const s = JSON.parse((await cli(['--store', temp.dir, 'stats', '--json'])).out) as { jobs?: Record<string, number> };
    assert.ok(s.jobs && (s.jobs.completed ?? 0) > 0 && !s.jobs.pending, JSON.stringify(s.jobs));
    const queued = await cli(['--store', temp.dir, 'remember', '--no-wait', 'The staging box reboots on sundays']);
    assert.equal(queued.code, 0, queued.err);
    const s2 = JSON.parse((await cli(['--store', temp.dir, 'stats', '--json'])).out) as { jobs?: Record<string, number> };
    assert.ok((s2.jobs?.pending ?? 0) > 0, `--no-wait leaves the jobs queued: ${JSON.stringify(s2.jobs)}`);
  });

  it('reports stats as JSON with the live memory count', async () => {
    await cli(['--store', temp.dir, 'remember', 'one']);
    await cli(['--store', temp.dir, 'remember', 'two']);
    const s = await cli(['--store', temp.dir, 'stats', '--json']);
    assert.equal(s.code, 0, s.err);
    const stats = JSON.parse(s.out) as Record<string, unknown>;
    assert.equal(stats.memories, 2);
    assert.equal(stats.entities, 0);
    assert.equal(typeof stats.schemaVersion, 'number');
    assert.ok((stats.storeBytes as number) > 0);
  });

  it('exits 2 for usage errors and 1 for a missing memory', async () => {
    assert.equal((await cli(['--store', temp.dir, 'remember'])).code, 2);
    assert.equal((await cli(['--store', temp.dir, 'remember', '--created-at', 'soon', 'x'])).code, 2);
    assert.equal((await cli(['--store', temp.dir, 'get'])).code, 2);
    const missing = await cli(['--store', temp.dir, 'get', 'no-such-id']);
    assert.equal(missing.code, 1);
    assert.equal(missing.err.trim(), 'agent-memory: No memory with id no-such-id.');
  });
});
