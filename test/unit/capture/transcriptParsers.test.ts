import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMemoryError } from '../../../src/core/errors';
import { detectTranscriptFormat, parseTranscript } from '../../../src/core/capture/transcriptFormat';
import { fileIdentity } from '../../../src/core/capture/transcriptTypes';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const invalidWith = (re: RegExp) => (e: unknown): boolean => isMemoryError(e, 'E_INVALID_INPUT') && re.test((e as Error).message);

describe('capture: transcript parsers', () => {
  it('detects each fixture format', () => {
    assert.equal(detectTranscriptFormat(fixture('vscode-chat-export.json')), 'vscode');
    assert.equal(detectTranscriptFormat(fixture('claude-session.jsonl')), 'claude');
    assert.equal(detectTranscriptFormat(fixture('generic.jsonl')), 'jsonl');
  });

  it('reads a VS Code chat export: request text, markdown parts of every version, inline references, tools and edits', () => {
    const t = parseTranscript(fixture('vscode-chat-export.json'));
    assert.equal(t.format, 'vscode');
    assert.deepEqual(t.turns.map((x) => x.role), ['user', 'assistant', 'user', 'tool', 'tool', 'assistant', 'user', 'assistant']);
    assert.match(t.turns[1]?.text ?? '', /^Use a single shared pool created at startup in `db\.ts`\./);
    assert.equal(t.turns[3]?.toolName, 'copilot_readFile');
    assert.equal(t.turns[3]?.text, 'Read .prettierrc');
    assert.equal(t.turns[4]?.text, 'edited .prettierrc');
    assert.match(t.turns[5]?.text ?? '', /useTabs: true/);
    assert.ok(!t.turns.some((x) => /user wants tabs/.test(x.text)), 'thinking parts are not part of the transcript');
    assert.equal(t.turns[0]?.timestamp, new Date(1764403200000).toISOString());
    assert.equal(t.startedAt, t.turns[0]?.timestamp);
  });

  it('gives a VS Code export without a session id the same id when the chat is exported again with more requests', () => {
    const data = JSON.parse(fixture('vscode-chat-export.json')) as { requests: unknown[] };
    const shorter = JSON.stringify({ ...data, requests: data.requests.slice(0, 1) });
    assert.equal(parseTranscript(shorter).sessionId, parseTranscript(fixture('vscode-chat-export.json')).sessionId);
  });

  it('reads the stored VS Code session shape (sessionId, creationDate, customTitle, plain-string message and response)', () => {
    const t = parseTranscript(JSON.stringify({ version: 3, sessionId: 'abc', creationDate: 1700000000000, customTitle: 'Pool setup', responderUsername: 'Copilot',
      requests: [{ message: 'We decided to use Kafka for events.', response: [{ value: 'Noted.' }] }, { message: { text: '', parts: [{ text: 'part one' }] }, response: 'plain answer' }] }));
    assert.equal(t.sessionId, 'abc');
    assert.equal(t.title, 'Pool setup');
    assert.equal(t.startedAt, new Date(1700000000000).toISOString());
    assert.deepEqual(t.turns.map((x) => [x.role, x.text]), [['user', 'We decided to use Kafka for events.'], ['assistant', 'Noted.'], ['user', 'part one'], ['assistant', 'plain answer']]);
  });

  it('names the field of a VS Code export it cannot read', () => {
    assert.throws(() => parseTranscript('{"responderUsername":"x"}', { format: 'vscode' }), invalidWith(/'requests' is missing/));
    assert.throws(() => parseTranscript('{"responderUsername":"x","requests":[{"response":[]}]}', { format: 'vscode' }), invalidWith(/requests\[0\]\.message is missing/));
    assert.throws(() => parseTranscript('{"requests": [', { format: 'vscode' }), invalidWith(/not valid JSON/));
  });

  it('reads a Claude Code log: session id, project from cwd, summary title, tool_use and tool_result as tool turns', () => {
    const t = parseTranscript(fixture('claude-session.jsonl'));
    assert.equal(t.sessionId, '3f2a9c1e-5b6d-4e7f-8a9b-0c1d2e3f4a5b');
    assert.equal(t.project, 'shop');
    assert.equal(t.title, 'Orders service: switch tests to Vitest');
    assert.deepEqual(t.turns.map((x) => x.role), ['user', 'assistant', 'tool', 'tool', 'tool', 'tool', 'assistant']);
    assert.deepEqual(t.turns.filter((x) => x.role === 'tool').map((x) => x.toolName), ['Read', 'Read', 'Bash', 'Bash']);
    assert.match(t.turns[5]?.text ?? '', /14 tests/);
    assert.equal(t.turns[2]?.key, 'b7d3c0de-0000-4000-8000-000000000003#1', 'a second turn from one line gets a suffixed key');
  });

  it('skips Claude Code meta, sidechain, command and thinking content and unknown line types', () => {
    const t = parseTranscript(fixture('claude-session.jsonl'));
    const all = t.turns.map((x) => x.text).join('\n');
    for (const hidden of ['Caveat:', 'Sub-agent', '<command-name>', 'jest config first', 'compacted']) assert.ok(!all.includes(hidden), hidden);
  });

  it('names the line of a Claude Code log without a type or with a bad message', () => {
    assert.throws(() => parseTranscript('{"type":"user","message":{"content":"hi"}}\n{"message":{}}\n', { format: 'claude' }), invalidWith(/line 2: no 'type' field/));
    assert.throws(() => parseTranscript('{"type":"assistant","message":{"content":42}}\n', { format: 'claude' }), invalidWith(/line 1: 'message.content'/));
  });

  it('reads the generic JSONL: first session id and project win, blank lines skipped, keys are line numbers or ids', () => {
    const t = parseTranscript(fixture('generic.jsonl'));
    assert.equal(t.sessionId, 'aider-2026-11-21');
    assert.equal(t.project, 'shop');
    assert.deepEqual(t.turns.map((x) => x.key), ['line-1', 'line-2', 'line-3', 'line-5']);
    assert.equal(t.turns[2]?.toolName, 'shell');
    const withIds = parseTranscript('{"role":"user","content":"a","id":"t-1","timestamp":1700000000000}\n', { format: 'jsonl' });
    assert.equal(withIds.turns[0]?.key, 't-1');
    assert.equal(withIds.turns[0]?.timestamp, new Date(1700000000000).toISOString());
  });

  it('names the line and field of bad generic JSONL', () => {
    assert.throws(() => parseTranscript(fixture('corrupt.jsonl')), invalidWith(/line 2: not valid JSON/));
    assert.throws(() => parseTranscript('{"role":"system","content":"x"}\n', { format: 'jsonl' }), invalidWith(/line 1: 'role' must be one of/));
    assert.throws(() => parseTranscript('{"role":"user","content":"x"}\n{"role":"user","content":3}\n', { format: 'jsonl' }), invalidWith(/line 2: 'content' must be text/));
    assert.throws(() => parseTranscript('{"role":"user","content":"x","timestamp":"someday"}\n', { format: 'jsonl' }), invalidWith(/line 1: 'timestamp' is not a date/));
  });

  it('refuses an empty or unrecognised file with a coded error', () => {
    assert.throws(() => parseTranscript(fixture('empty.jsonl')), invalidWith(/empty/));
    assert.throws(() => parseTranscript(fixture('unrecognised.json')), invalidWith(/Unrecognised transcript/));
    assert.throws(() => parseTranscript('hello there\n'), invalidWith(/line 1 is not valid JSON/));
  });

  it('accepts a file starting with a byte-order mark', () => {
    assert.equal(parseTranscript(`\uFEFF${fixture('vscode-chat-export.json')}`).format, 'vscode');
    assert.equal(parseTranscript(`\uFEFF${fixture('generic.jsonl')}`).turns.length, 4);
  });

  it('detects a Claude Code log that starts with file-history snapshots', () => {
    const snap = '{"type":"file-history-snapshot","messageId":"m1","snapshot":{},"isSnapshotUpdate":false}\n';
    assert.equal(detectTranscriptFormat(snap.repeat(25) + fixture('claude-session.jsonl')), 'claude');
  });

  it('honours an explicit format over detection', () => {
    assert.throws(() => parseTranscript(fixture('generic.jsonl'), { format: 'claude' }), invalidWith(/no 'type' field/));
  });

  it('cuts very long turns and numbers lines from an offset', () => {
    const t = parseTranscript(`${JSON.stringify({ role: 'tool', content: 'x'.repeat(5000) })}\n`, { format: 'jsonl', maxTurnChars: 300, firstLineNo: 41 });
    assert.ok((t.turns[0]?.text.length ?? 0) < 320);
    assert.match(t.turns[0]?.text ?? '', /truncated\]$/);
    assert.equal(t.turns[0]?.key, 'line-41');
  });

  it('derives a file identity from the first non-blank line only', () => {
    assert.equal(fileIdentity('\n{"a":1}\n{"b":2}\n'), fileIdentity('{"a":1}\n{"c":3}'));
    assert.notEqual(fileIdentity('{"a":1}'), fileIdentity('{"a":2}'));
  });
});
