import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';

async function cli(dir: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [], err: string[] = [];
  const code = await runCli(['--store', dir, ...argv], { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } });
  return { code, out: out.join(''), err: err.join('') };
}

describe('session, pin, health and maintain CLI', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'am-session-cli-')); });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  it('runs a session start → turn → end and reports the end once', async () => {
    assert.equal((await cli(dir, 'remember', 'The webshop deploys esbuild bundles on fridays')).code, 0);
    const start = await cli(dir, 'session', 'start', '--session', 'cli-1', '--project', '/x/webshop', '--json');
    assert.equal(start.code, 0, start.err);
    const started = JSON.parse(start.out) as { sessionKey: string; injected: { content: string }[] };
    assert.equal(started.sessionKey, 'cli-1');
    assert.match(started.injected[0]?.content ?? '', /webshop/);
    assert.equal((await cli(dir, 'session', 'turn', 'cli-1', 'why', 'did', 'the', 'friday', 'deploy', 'fail?')).out, '0\n');
    const end = await cli(dir, 'session', 'end', 'cli-1', '--json');
    const report = JSON.parse(end.out) as { continuity: { method: string }; feedback: { skipped?: string } };
    assert.equal(report.continuity.method, 'proxy');
    assert.equal((await cli(dir, 'session', 'end', 'cli-1')).out, 'session cli-1 had already ended\n');
    const late = await cli(dir, 'session', 'turn', 'cli-1', 'late');
    assert.equal(late.code, 1);
    assert.match(late.err, /has ended/);
  });

  it('rejects bad usage with exit code 2', async () => {
    assert.equal((await cli(dir, 'session', 'dance')).code, 2);
    assert.equal((await cli(dir, 'session', 'turn', 'k', '--role', 'robot', 'hi')).code, 2);
    assert.equal((await cli(dir, 'pin')).code, 2);
    assert.equal((await cli(dir, 'maintain', 'bogus')).code, 2);
  });

  it('pins only known entities and lists pins as JSON', async () => {
    const r = await cli(dir, 'pin', 'No Such Thing');
    assert.equal(r.code, 1);
    assert.match(r.err, /No entity named 'No Such Thing'/);
    assert.equal((await cli(dir, 'pinned', '--json')).out, '[]\n');
  });

  it('prints health and maintenance reports as JSON', async () => {
    const health = JSON.parse((await cli(dir, 'health', '--json')).out) as { entities: unknown[]; reason?: string; feedback: { aspectCount: number } };
    assert.deepEqual(health.entities, []);
    assert.match(health.reason ?? '', /^No predictor comparisons for agent "default" yet: they are recorded when a session with recalled memories ends\.$/);
    assert.equal(typeof health.feedback.aspectCount, 'number');
    const m = await cli(dir, 'maintain', '--json', 'decay-aspects');
    assert.equal(m.code, 0, m.err);
    assert.deepEqual((JSON.parse(m.out) as { tasks: { task: string; status: string }[] }).tasks.map((t) => [t.task, t.status]), [['decay-aspects', 'completed']]);
  });
});

describe('maintain CLI on the durable store', () => {
  it('explains an empty health report and empty JSON lists', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'am-health-empty-'));
    try {
      const health = await cli(empty, 'health', '--json');
      assert.equal(health.code, 0, health.err);
      assert.match((JSON.parse(health.out) as { reason: string }).reason, /^No predictor comparisons (yet|for agent "default" yet): they are recorded when a session/);
      assert.match((await cli(empty, 'health')).out, /^No predictor comparisons .*recorded when a session/);
      for (const [command, reason] of [['entities', /^reason: No entities yet: they are extracted from memories/], ['pinned', /^reason: No pinned entities: pin one with agent-memory pin NAME/]] as const) {
        const r = await cli(empty, command, '--json');
        assert.equal(r.out, '[]\n', `${command} --json stays an array`);
        assert.match(r.err, reason);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('includes store compaction and reports it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'am-maintain-cli-'));
    try {
      assert.equal((await cli(dir, 'remember', 'compaction needs something in the journal')).code, 0);
      const r = await cli(dir, 'maintain', 'compact-store', '--json');
      assert.equal(r.code, 0, r.err);
      const task = (JSON.parse(r.out) as { tasks: { task: string; status: string; summary: Record<string, number> }[] }).tasks[0];
      assert.deepEqual([task?.task, task?.status], ['compact-store', 'completed']);
      assert.equal(typeof task?.summary.snapshotSeq, 'number');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
