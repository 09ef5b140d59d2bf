/**
 * `agent-memory hook` over every event and harness dialect, and bad input (issue 23): garbage
 * stdin, a missing transcript, a transcript rewritten under us, a locked store. Whatever happens
 * the call exits 0, answers either nothing or the harness's own JSON, loses nothing (a failed
 * capture is read again by the next call) and leaves a line in <store>/hooks.log.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runHookCall } from '../../../src/cli/commands/hook';
import type { ParsedArgs } from '../../../src/cli/args';
import { makeTempDir } from '../helpers/tempDir';

interface Out { code: number; stdout: string }
async function hook(store: string, payload: unknown, flags: Record<string, string> = {}): Promise<Out> {
  let stdout = '';
  const args: ParsedArgs = { flags: { store, ...flags }, positionals: [] };
  const code = await runHookCall(args, { stdout: (t) => { stdout += t; }, stderr: () => undefined }, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return { code, stdout };
}
const logOf = (store: string): string => (existsSync(join(store, 'hooks.log')) ? readFileSync(join(store, 'hooks.log'), 'utf8') : '');
const lastLog = (store: string): string => logOf(store).trim().split('\n').pop() ?? '';
const line = (o: unknown): string => JSON.stringify(o) + '\n';
const claudeLine = (uuid: string, role: 'user' | 'assistant', text: string): string => line({ type: role, message: { role, content: text }, uuid, sessionId: 's', cwd: '/w/shop', timestamp: '2026-12-01T09:00:00Z' });
/** Log lines of calls that stored memories (the log says what each call did). */
const captured = (store: string): string[] => logOf(store).split('\n').filter((l) => / stored [1-9]/.test(l));

describe('agents: hook table over every event, dialect and bad input', function () {
  this.timeout(600_000);
  let temp: { dir: string; cleanup: () => void };
  let store: string;
  beforeEach(() => { temp = makeTempDir('agent-memory-hooktable-'); store = join(temp.dir, 'store'); });
  afterEach(() => temp.cleanup());

  const ROWS: { name: string; payload: Record<string, unknown>; flags?: Record<string, string> }[] = [
    // Claude Code (snake_case, hook_event_name)
    ...['SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd', 'PreToolUse', 'PostToolUse', 'Notification'].map((e) => ({
      name: `claude-code ${e}`, flags: { harness: 'claude-code' },
      payload: { session_id: 'c1', cwd: '/w/shop', hook_event_name: e, prompt: 'How do we deploy?', source: 'startup', tool_name: 'Bash', tool_input: { command: 'ls' }, message: 'hi', stop_hook_active: false, reason: 'exit' },
    })),
    // VS Code documentation: camelCase common fields, PascalCase events
    ...['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop'].map((e) => ({
      name: `vscode ${e} (camelCase fields)`, flags: { harness: 'vscode' },
      payload: { timestamp: '2026-12-02T10:00:00.000Z', hookEventName: e, sessionId: 'v1', cwd: '/w/shop', prompt: 'How do we deploy?', tool_name: 'editFiles', tool_input: {} },
    })),
    // Copilot Chat's hook service: snake_case with a numeric timestamp
    ...['SessionStart', 'UserPromptSubmit', 'Stop'].map((e) => ({
      name: `vscode ${e} (Copilot Chat snake_case)`, flags: { harness: 'vscode' },
      payload: { timestamp: Date.parse('2026-12-02T10:00:00Z'), hook_event_name: e, session_id: 'v2', cwd: '/w/shop', prompt: 'How do we deploy?', source: 'new', stop_hook_active: false },
    })),
    // Copilot CLI: camelCase event names given by --event (its payload names none)
    ...['sessionStart', 'userPromptSubmitted', 'agentStop', 'subagentStop', 'sessionEnd', 'preToolUse', 'postToolUse', 'errorOccurred'].map((e) => ({
      name: `copilot ${e}`, flags: { event: e },
      payload: { timestamp: Date.parse('2026-12-02T10:00:00Z'), cwd: '/w/shop', sessionId: 'p1', source: 'new', initialPrompt: 'Set up CI', prompt: 'We decided to deploy the API with Fly.io from now on.', toolName: 'bash', toolArgs: '{}', reason: 'complete', error: { message: 'x' } },
    })),
  ];

  it('answers every event of every dialect with exit 0, the harness JSON or nothing, and a log line', async () => {
    // one memory so the injection events have something to find
    await hook(store, { session_id: 'seed', hook_event_name: 'UserPromptSubmit', prompt: 'We deploy with the blue-green deploy script on Fridays.' }, { harness: 'copilot' });
    for (const row of ROWS) {
      const r = await hook(store, row.payload, row.flags ?? {});
      assert.equal(r.code, 0, row.name);
      if (r.stdout) {
        const o = JSON.parse(r.stdout) as Record<string, { hookEventName?: string; additionalContext?: string } | string>;
        const ctx = typeof o.additionalContext === 'string' ? o.additionalContext : (o.hookSpecificOutput as { additionalContext?: string }).additionalContext;
        assert.match(ctx ?? '', /<agent-memory>/, row.name);
        if (row.flags?.event) assert.equal(typeof o.additionalContext, 'string', `${row.name}: Copilot's camelCase dialect gets a top-level additionalContext`);
        else assert.ok(['SessionStart', 'UserPromptSubmit'].includes((o.hookSpecificOutput as { hookEventName: string }).hookEventName), row.name);
      }
      assert.match(lastLog(store), / ok/, `${row.name}: ${lastLog(store)}`);
    }
    assert.ok(captured(store).length >= 1, 'the Copilot CLI prompt (no transcript) was captured');
  });

  it('garbage or empty stdin, an unknown event, no session: exit 0, nothing out, the error in the log', async () => {
    for (const [payload, error] of [['not json {', /not JSON/], ['', /not JSON/], ['[1,2]', /not a JSON object/], [{ hook_event_name: 'Bogus', session_id: 'x' }, /Unknown hook event/], [{ hook_event_name: 'Stop' }, /no session id/]] as const) {
      const r = await hook(store, payload);
      assert.deepEqual(r, { code: 0, stdout: '' });
      assert.match(lastLog(store), /ERROR/);
      assert.match(lastLog(store), error);
      assert.doesNotMatch(lastLog(store), /\n\s+at /, 'no stack trace');
    }
  });

  it('a missing transcript: exit 0, nothing out, the error in the log; the turns are read once the file exists', async () => {
    const transcript = join(temp.dir, 'late.jsonl');
    const stop = { session_id: 's', transcript_path: transcript, cwd: '/w/shop', hook_event_name: 'Stop' };
    assert.deepEqual(await hook(store, stop), { code: 0, stdout: '' });
    assert.match(lastLog(store), /ERROR .*(no such file|ENOENT|not found|could not)/i);
    writeFileSync(transcript, claudeLine('u1', 'user', 'We decided to keep invoices in S3 Glacier after 90 days.'));
    assert.equal((await hook(store, stop)).code, 0);
    assert.match(lastLog(store), /stored 1/);
  });

  it('a transcript rewritten under us is read again from the start without capturing a turn twice', async () => {
    const transcript = join(temp.dir, 't.jsonl');
    const stop = { session_id: 's', transcript_path: transcript, cwd: '/w/shop', hook_event_name: 'Stop' };
    writeFileSync(transcript, claudeLine('u1', 'user', 'We decided to use pnpm workspaces for the monorepo.') + claudeLine('u2', 'user', 'Never commit the generated GraphQL types.'));
    await hook(store, stop);
    assert.match(lastLog(store), /2 new turn\(s\).*stored 2/);
    await hook(store, stop);
    assert.match(lastLog(store), /0 new turn\(s\)/, 'each turn is read once');
    // compaction: the file is replaced by a shorter one starting differently
    writeFileSync(transcript, line({ type: 'summary', summary: 'compacted', leafUuid: 'u2' }) + claudeLine('u2', 'user', 'Never commit the generated GraphQL types.') + claudeLine('u3', 'user', 'We decided to run the CI jobs on ARM64 runners.'));
    await hook(store, stop);
    assert.match(lastLog(store), /transcript rewritten, re-read; 2 new turn\(s\).*stored 1, confirmed 0/);
  });

  it('a locked store: exit 0 after the wait, the error in the log, and the next call captures what the failed one could not', async () => {
    const transcript = join(temp.dir, 't.jsonl');
    const stop = { session_id: 's', transcript_path: transcript, cwd: '/w/shop', hook_event_name: 'Stop' };
    writeFileSync(transcript, claudeLine('u1', 'user', 'hello'));
    await hook(store, stop);
    writeFileSync(transcript, claudeLine('u1', 'user', 'hello') + claudeLine('u2', 'user', 'We decided to pin Node to version 22 in the Dockerfile.'));
    const lock = join(store, 'write.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'held-by-test', at: Date.now() }));
    try {
      assert.deepEqual(await hook(store, stop), { code: 0, stdout: '' });
      assert.match(lastLog(store), /ERROR .*busy/);
    } finally { rmSync(lock, { force: true }); }
    await hook(store, stop);
    assert.match(lastLog(store), /1 new turn\(s\).*stored 1/, 'nothing lost: the turn is captured by the next call');
  });
});
