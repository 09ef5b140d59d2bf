/**
 * The per-store hook service (src/cli/hookService.ts): started as the hook calls start it, it
 * answers hook calls over its socket with the same handlers, and exits by itself when idle,
 * removing its socket (tests leave no process behind).
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { askService, serviceAddress } from '../../../src/cli/hookServiceClient';
import { spawnChild } from '../helpers/childProcess';
import { makeTempDir } from '../helpers/tempDir';

describe('agents: the per-store hook service', function () {
  this.timeout(300_000);
  let temp: { dir: string; cleanup: () => void };
  beforeEach(() => { temp = makeTempDir('agent-memory-hooksvc-'); });
  afterEach(() => temp.cleanup());

  it('answers hook calls over its socket and exits when idle, removing the socket', async () => {
    const store = join(temp.dir, 'store');
    const svc = spawnChild('src/cli/main.ts', ['hook-service', '--store', store], { ...process.env, AGENT_MEMORY_HOOK_SERVICE_IDLE_MS: '3000' });
    try {
      let ping;
      for (let i = 0; i < 600 && !ping; i++) { ping = await askService(store, { stdin: '' }); if (!ping) await new Promise((r) => setTimeout(r, 100)); }
      assert.equal(ping?.stdout, '');
      assert.match(ping?.log ?? '', /^ping(: warming up)?$/);
      // a ping is answered at once, and says 'ping' once the warm-up (store, model, indexes) is done
      for (let i = 0; i < 1200 && ping?.log !== 'ping'; i++) { await new Promise((r) => setTimeout(r, 100)); ping = await askService(store, { stdin: '' }); }
      assert.equal(ping?.log, 'ping');
      assert.match(readFileSync(join(store, 'hooks.log'), 'utf8'), /hook-service: warm in \d+ ms/);
      const remembered = await askService(store, { harness: 'copilot', stdin: JSON.stringify({ sessionId: 'p1', hookEventName: 'userPromptSubmitted', prompt: 'We decided to use pnpm workspaces for the monorepo.' }) }, 120_000);
      assert.match(remembered?.log ?? '', /copilot UserPromptSubmit session=p1: ok in \d+ ms \(service\)/);
      const asked = await askService(store, { harness: 'claude-code', stdin: JSON.stringify({ session_id: 'c2', hook_event_name: 'UserPromptSubmit', prompt: 'Do we use pnpm workspaces?' }) }, 120_000);
      assert.match(asked?.log ?? '', /claude-code UserPromptSubmit session=c2: ok in \d+ ms \(service\)/);
      // the prompt's capture ran right after its answer, before the next call was served
      assert.match(readFileSync(join(store, 'hooks.log'), 'utf8'), /copilot UserPromptSubmit session=p1: after the answer, ok in \d+ ms \(service\): prompt captured: stored 1/);
      assert.match(asked?.stdout ?? '', /pnpm workspaces for the monorepo/);
      const bad = await askService(store, { stdin: 'garbage' }, 120_000);
      assert.deepEqual([bad?.stdout, /ERROR .*not JSON/.test(bad?.log ?? '')], ['', true]);
      assert.equal(await svc.exited, 0, svc.stderr());
      assert.equal(existsSync(serviceAddress(store)), false, 'socket removed');
      assert.match(readFileSync(join(store, 'hooks.log'), 'utf8'), /hook-service: stopped/);
    } finally { if (svc.child.exitCode === null) svc.child.kill(); }
  });

  it('exits soon after a stop request, not after its idle limit', async () => {
    const store = join(temp.dir, 'store');
    // an idle limit far longer than the test: only the stop request can end the process in time
    const svc = spawnChild('src/cli/main.ts', ['hook-service', '--store', store], { ...process.env, AGENT_MEMORY_HOOK_SERVICE_IDLE_MS: '600000' });
    try {
      let ping;
      for (let i = 0; i < 1200 && ping?.log !== 'ping'; i++) { ping = await askService(store, { stdin: '' }); if (ping?.log !== 'ping') await new Promise((r) => setTimeout(r, 100)); }
      assert.equal(ping?.log, 'ping');
      const stopped = await askService(store, { stdin: '', stop: true }, 60_000);
      assert.equal(stopped?.log, 'hook-service: stop requested');
      const exit = await Promise.race([svc.exited, new Promise<string>((r) => setTimeout(() => r('still running 30 s after the stop request'), 30_000))]);
      assert.equal(exit, 0, svc.stderr());
      assert.equal(existsSync(serviceAddress(store)), false, 'socket removed');
    } finally { if (svc.child.exitCode === null) svc.child.kill(); }
  });
});
