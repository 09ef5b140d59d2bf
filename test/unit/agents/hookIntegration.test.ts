/**
 * The hooks' proof (issue 23, "Done when"): the bundled CLI runs exactly as the hook configuration
 * we write names it (`sh -c <command>`), fed the payloads Claude Code and Copilot Chat's hook
 * service send (snake_case) and the VS Code documentation's camelCase spelling, over real
 * transcript files. A decision captured at Stop in one session is injected by a later session's
 * UserPromptSubmit; the same memory is never injected twice into one session; nothing is injected
 * when nothing is relevant.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { askService } from '../../../src/cli/hookServiceClient';
import { githubHookFile, hookCommand } from '../../../src/core/hooks/hookConfigMerge';
import { bundleChild } from '../helpers/childProcess';
import { makeTempDir } from '../helpers/tempDir';

const ROOT = join(__dirname, '..', '..', '..');

interface Run { code: number | null; stdout: string; stderr: string }
/** Hook service processes (started by the hook calls) serving `store`, from /proc. */
function servicePids(store: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmd.includes('hook-service') && cmd.includes(store)) out.push(Number(pid));
    } catch { /* gone */ }
  }
  return out;
}

// a short idle limit so a service that starts after the test asked it to stop leaves soon
const ENV = { ...process.env, AGENT_MEMORY_HOOK_SERVICE_IDLE_MS: '2000' };
function sh(command: string, payload: unknown, env: NodeJS.ProcessEnv = ENV): Run {
  const r = spawnSync('sh', ['-c', command], { input: typeof payload === 'string' ? payload : JSON.stringify(payload), encoding: 'utf8', env, cwd: ROOT, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const context = (r: Run): string => {
  if (!r.stdout.trim()) return '';
  const o = JSON.parse(r.stdout) as { hookSpecificOutput?: { additionalContext?: string }; additionalContext?: string };
  return o.hookSpecificOutput?.additionalContext ?? o.additionalContext ?? '';
};
const line = (o: unknown): string => JSON.stringify(o) + '\n';

describe('agents: hooks through the bundled CLI as the written configuration names it', function () {
  this.timeout(600_000);
  let temp: { dir: string; cleanup: () => void };
  let cli: string;
  before(() => { cli = bundleChild('src/cli/main.ts'); });
  beforeEach(() => { temp = makeTempDir('agent-memory-hooks-'); });
  afterEach(async () => {
    // the first hook call started the store's hook service: stop it, and wait for it to be gone
    const store = join(temp.dir, 'store');
    for (let i = 0; i < 600 && (servicePids(store).length || existsSync(join(store, 'hook.sock'))); i++) {
      await askService(store, { stdin: '', stop: true });
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(servicePids(store), [], 'the hook service is gone');
    temp.cleanup();
  });

  it('Claude Code: installed hooks capture a decision at Stop and a later session gets it at UserPromptSubmit, once', () => {
    const store = join(temp.dir, 'store');
    const project = join(temp.dir, 'shop');
    mkdirSync(project, { recursive: true });
    const install = spawnSync(process.execPath, [cli, 'hook', 'install', '--harness', 'claude-code', '--project', project, '--store', store], { encoding: 'utf8', cwd: ROOT, env: ENV });
    assert.equal(install.status, 0, install.stderr);
    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const command = (event: string): string => settings.hooks[event]?.[0]?.hooks[0]?.command ?? assert.fail(`no ${event} hook written`);
    const transcript = join(temp.dir, 'cc-1.jsonl');
    writeFileSync(transcript, line({ type: 'user', message: { role: 'user', content: 'Hi there' }, uuid: 'u0', sessionId: 'cc-1', cwd: project, timestamp: '2026-12-01T09:00:00Z' })
      + line({ type: 'user', message: { role: 'user', content: 'We decided to use Drizzle ORM instead of Prisma for the billing service.' }, uuid: 'u1', sessionId: 'cc-1', cwd: project, timestamp: '2026-12-01T09:00:05Z' })
      + line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Understood, switching to Drizzle.' }, { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm i drizzle-orm' } }] }, uuid: 'a1', sessionId: 'cc-1', timestamp: '2026-12-01T09:00:09Z' }));
    const start = sh(command('SessionStart'), { session_id: 'cc-1', transcript_path: transcript, cwd: project, hook_event_name: 'SessionStart', source: 'startup' });
    assert.deepEqual([start.code, start.stdout], [0, ''], 'an empty store injects nothing');
    const stop = sh(command('Stop'), { session_id: 'cc-1', transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false });
    assert.deepEqual([stop.code, stop.stdout], [0, '']);
    const end = sh(command('SessionEnd'), { session_id: 'cc-1', transcript_path: transcript, cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' });
    assert.equal(end.code, 0);
    const later = { session_id: 'cc-2', transcript_path: join(temp.dir, 'cc-2.jsonl'), cwd: project, hook_event_name: 'UserPromptSubmit', prompt: 'Which ORM does the billing service use?' };
    const first = sh(command('UserPromptSubmit'), later);
    assert.equal(first.code, 0);
    assert.match(context(first), /Drizzle ORM instead of Prisma/);
    assert.equal(JSON.parse(first.stdout).hookSpecificOutput.hookEventName, 'UserPromptSubmit');
    const again = sh(command('UserPromptSubmit'), { ...later, prompt: 'Remind me: which ORM for billing?' });
    assert.deepEqual([again.code, again.stdout], [0, ''], 'never the same memory twice in a session');
    const unrelated = sh(command('UserPromptSubmit'), { ...later, session_id: 'cc-3', prompt: 'Render the chart legend in italics' });
    assert.deepEqual([unrelated.code, unrelated.stdout], [0, ''], 'nothing when nothing is relevant');
    const log = readFileSync(join(store, 'hooks.log'), 'utf8');
    assert.match(log, /claude-code Stop session=cc-1: ok .*stored 1/);
    assert.doesNotMatch(log, /ERROR/);
  });

  it('VS Code / Copilot Chat: snake_case and camelCase payloads over a Copilot transcript', () => {
    const store = join(temp.dir, 'store');
    const workspace = join(temp.dir, 'api');
    mkdirSync(workspace, { recursive: true });
    const file = githubHookFile(hookCommand({ node: process.execPath, cliJs: cli, harness: 'vscode', store }), 'vscode') as { hooks: Record<string, { command: string }[]> };
    const command = (event: string): string => file.hooks[event]?.[0]?.command ?? assert.fail(`no ${event} hook`);
    const transcript = join(temp.dir, 'copilot-events.jsonl');
    writeFileSync(transcript, line({ type: 'session.start', data: { sessionId: 'vs-1' }, id: 'e0', timestamp: '2026-12-01T10:00:00Z' })
      + line({ type: 'user.message', data: { content: 'From now on the API must return RFC 7807 problem details for every error.' }, id: 'e1', timestamp: '2026-12-01T10:00:01Z' })
      + line({ type: 'assistant.message', data: { content: 'Okay.' }, id: 'e2', timestamp: '2026-12-01T10:00:03Z' }));
    // Copilot Chat's hook service: snake_case, Claude-compatible, with a numeric timestamp
    const stop = sh(command('Stop'), { timestamp: Date.now(), hook_event_name: 'Stop', session_id: 'vs-1', transcript_path: transcript, cwd: workspace, stop_hook_active: false });
    assert.deepEqual([stop.code, stop.stdout], [0, '']);
    // the documentation's camelCase common fields
    const prompt = sh(command('UserPromptSubmit'), { timestamp: new Date().toISOString(), hookEventName: 'UserPromptSubmit', sessionId: 'vs-2', cwd: workspace, prompt: 'What must the API return for errors?' });
    assert.equal(prompt.code, 0);
    assert.match(context(prompt), /RFC 7807 problem details/);
    const log = readFileSync(join(store, 'hooks.log'), 'utf8');
    assert.match(log, /vscode Stop session=vs-1: ok .*\(copilot\): stored 1/);
  });
});
