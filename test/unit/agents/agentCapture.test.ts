import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import type { TranscriptTurn } from '../../../src/core/capture/transcriptTypes';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { engineOnStore } from '../helpers/testEngine';
import { cueStatements } from '../../../src/core/capture/agentJunkGuards';

const u = (key: string, text: string): TranscriptTurn => ({ role: 'user', key, text });
const a = (key: string, text: string): TranscriptTurn => ({ role: 'assistant', key, text });
const live = (store: MemoryStore): string[] => store.read((db) => db.all<{ content: string }>("SELECT content FROM memories WHERE is_deleted = 0 AND source_type = 'agent_capture' ORDER BY rowid").map((r) => r.content));

describe('agents: captureTurns (the engine contract)', () => {
  let clock: ManualClock;
  let store: MemoryStore;
  beforeEach(async () => { clock = new ManualClock(Date.parse('2026-12-02T10:00:00Z')); store = await openMemoryStore({ clock }); });
  afterEach(async () => { await store.close(); });

  it('stores a planted decision with provenance and reports per reason what it skipped', async () => {
    const engine = engineOnStore(store, clock);
    const r = await engine.captureTurns({ harness: 'claude-code', sessionId: 's1', workspace: '/home/dev/shop', turns: [
      u('t1', 'hello'), u('t2', 'We decided to use PostgreSQL 16 for the orders service.'), a('t3', 'ok'),
      { role: 'tool', key: 't4', text: 'npm ERR! missing script: test', toolName: 'bash' }, u('t5', 'Can you run the tests?'),
    ] });
    assert.equal(r.stored, 1);
    assert.deepEqual(r.skipped, { greeting: 1, acknowledgement: 1, 'tool-output': 1, question: 1 });
    assert.deepEqual(live(store), ['We decided to use PostgreSQL 16 for the orders service.']);
    const [c] = await engine.recentCaptures();
    assert.deepEqual({ harness: c?.harness, sessionId: c?.sessionId, turnKey: c?.turnKey, status: c?.status, project: c?.project }, { harness: 'claude-code', sessionId: 's1', turnKey: 't2', status: 'active', project: 'shop' });
    const act = await engine.agentActivity();
    assert.deepEqual(act.map((x) => [x.harness, x.capturedToday, x.lastCaptureAt]), [['claude-code', 1, '2026-12-02T10:00:00.000Z']]);
    await engine.close();
  });

  it('is idempotent per (session, turn) across harnesses, and a repeated statement confirms instead of adding', async () => {
    const engine = engineOnStore(store, clock);
    const turns = [u('t1', 'We decided to use PostgreSQL 16 for the orders service.')];
    await engine.captureTurns({ harness: 'vscode', sessionId: 's1', turns });
    const again = await engine.captureTurns({ harness: 'vscode-chat-history', sessionId: 's1', turns });
    assert.deepEqual([again.stored, again.confirmed, again.skipped['already-seen']], [0, 0, 1]);
    const other = await engine.captureTurns({ harness: 'claude-code', sessionId: 's2', turns: [u('x', 'We decided to use PostgreSQL 16 for the orders service!')] });
    assert.deepEqual([other.stored, other.confirmed], [0, 1]);
    assert.equal(live(store).length, 1);
    await engine.close();
  });

  it('never stores an echo of what the session was given, and captures nothing from untrusted, excluded or switched-off sources', async () => {
    const engine = engineOnStore(store, clock, { 'agents.excludePaths': ['**/secret/**'], 'agents.capture.copilot': false });
    const m = await engine.remember({ content: 'The billing service must always retry webhooks three times.' });
    await engine.recordInjection({ harness: 'claude-code', sessionId: 's1', memories: [{ id: m.id, content: 'The billing service must always retry webhooks three times.' }] });
    const echo = await engine.captureTurns({ harness: 'claude-code', sessionId: 's1', turns: [a('t1', 'As noted, the billing service must always retry webhooks three times.')] });
    assert.equal(echo.skipped.echo, 1);
    const planted = 'We decided to deploy the API on Fly.io from now on.';
    assert.equal((await engine.captureTurns({ harness: 'vscode', sessionId: 's2', trusted: false, turns: [u('t', planted)] })).skipped.untrusted, 1);
    assert.equal((await engine.captureTurns({ harness: 'vscode', sessionId: 's3', workspace: '/home/dev/secret/app', turns: [u('t', planted)] })).skipped['excluded-path'], 1);
    assert.equal((await engine.captureTurns({ harness: 'copilot', sessionId: 's4', turns: [u('t', planted)] })).skipped['harness-off'], 1);
    assert.deepEqual(live(store), []);
    await engine.close();
  });

  it('redacts before anything is stored', async () => {
    const engine = engineOnStore(store, clock);
    await engine.captureTurns({ harness: 'claude-code', sessionId: 's1', turns: [u('t1', 'We decided to use the staging key sk-abcdefghijklmnopqrstuvwxyz123456 for the smoke tests.')] });
    const all = store.read((db) => db.all<{ content: string }>('SELECT content FROM memories')).map((r) => r.content).join('\n');
    assert.doesNotMatch(all, /sk-abcdefghijklmnop/);
    await engine.close();
  });

  it('a restatement confirms the memory, an update with a new value or name does not', async () => {
    const engine = engineOnStore(store, clock);
    await engine.captureTurns({ harness: 'copilot', sessionId: 's1', turns: [u('t1', 'We settled on Ktor for the shared networking layer in the KMP module.')] });
    const again = await engine.captureTurns({ harness: 'copilot', sessionId: 's1', turns: [u('t2', 'Just to repeat: the shared networking layer in the KMP module uses Ktor.')] });
    assert.deepEqual([again.stored, again.confirmed], [0, 1], 'filler words ("just to repeat", "uses") add nothing');
    const changed = await engine.captureTurns({ harness: 'copilot', sessionId: 's1', turns: [u('t3', 'We settled on OkHttp for the shared networking layer in the KMP module.')] });
    assert.equal(changed.stored, 1, 'another library is another statement');
    await engine.captureTurns({ harness: 'copilot', sessionId: 's2', turns: [u('t1', 'The checkout page must stay under 120 kB of first-load JavaScript.')] });
    const value = await engine.captureTurns({ harness: 'copilot', sessionId: 's2', turns: [u('t2', 'The checkout page must stay under 150 kB of first-load JavaScript.')] });
    assert.equal(value.stored, 1, 'a new number is an update, never a confirmation');
    const first = await engine.captureTurns({ harness: 'copilot', sessionId: 's3', turns: [u('t1', 'The public API rate limit must be 100 requests per minute for free accounts on the gateway.')] });
    assert.equal(first.stored, 1);
    const limit = await engine.captureTurns({ harness: 'copilot', sessionId: 's3', turns: [u('t2', 'The public API rate limit must be 200 requests per minute for free accounts on the gateway.')] });
    assert.deepEqual([limit.stored, limit.confirmed], [1, 0], 'however similar the rest of a long sentence');
    await engine.close();
  });
});

describe('agents: the cue families of cueStatements', () => {
  const types = (text: string): string[] => cueStatements(text).map((c) => c.type);
  const cases: [string, string[]][] = [
    ["I'd rather keep one workspace per account than per region.", ['preference']],
    ['I’d prefer British spelling across the docs.', ['preference']],
    ['My preference is snapshot tests over screenshot tests.', ['preference']],
    ["We're going with Cilium as the CNI for the new clusters.", ['decision']],
    ["Let's go with Tailwind for the checkout redesign.", ['decision']],
    ['Decision: the nightly export writes Parquet files, not CSV.', ['decision']],
    ['We replaced the cron retry job with an outbox table.', ['decision']],
    ['Webhook handlers have to be idempotent on the event id.', ['constraint']],
    ['The bundle needs to stay under 120 kB of JavaScript.', ['constraint']],
    ['I need to be careful with this migration today.', []],
    ['I need to check the logs for the export job.', []],
    ['Can we go with Tailwind for the checkout redesign?', []],
    ["We'll use the new Input System package for the player.", ['decision']],
    ['We are moving feature computation from pandas to Spark.', ['decision']],
    ['Every alert needs to link to a runbook before paging.', ['constraint']],
    ["I'd like the editor to default to a monospace font.", ['preference']],
    ["I'd like you to fix the failing login test now.", []],
    ["I'd like to refactor this module later today.", []],
  ];
  for (const [text, want] of cases) it(`${JSON.stringify(text)} → ${want.join(', ') || 'nothing'}`, () => assert.deepEqual(types(text), want));
});
