import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { feedbackLoopStatus } from '../../../src/core/sessions/feedbackLoopStatus';
import { openTestStore } from '../feedback/graphFixture';
import { engineOnStore } from '../helpers/testEngine';

describe('feedback loop settings (the engine assembles the loop)', () => {
  const manifest = JSON.parse(readFileSync(join(process.env.AGENT_MEMORY_ROOT ?? process.cwd(), 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default: unknown }> }[] } };
  const props = Object.assign({}, ...manifest.contributes.configuration.map((c) => c.properties)) as Record<string, { default: unknown }>;

  it('gives the typed defaults when VS Code returns the declared defaults', async () => {
    const { store, clock } = await openTestStore();
    const defaults = Object.fromEntries(Object.entries(props).map(([k, v]) => [k.replace(/^agentMemory\./, ''), v.default]));
    const { loop } = engineOnStore(store, clock, defaults);
    assert.equal(loop.config.feedback.ftsWeightDelta, 0.02);
    assert.equal(loop.config.feedback.decayIntervalSessions, 10);
    assert.equal(loop.config.session.idleTimeoutMs, 30 * 60_000);
    assert.deepEqual([loop.config.hints.enabled, loop.config.hints.max, loop.config.hints.timeoutMs], [false, 5, 45_000]);
    assert.equal(loop.config.maintenance.intervalMs, 24 * 3_600_000);
    assert.equal(loop.hints.status().state, 'disabled');
    await store.close();
  });

  it('converts units; an out-of-range value falls back to its default (the settings table decides)', async () => {
    const values: Record<string, unknown> = { 'hints.enabled': true, 'hints.timeoutSeconds': 1, 'hints.max': 50, 'sessions.idleTimeoutMinutes': 5 };
    const { store, clock } = await openTestStore();
    const inRange = engineOnStore(store, clock, { 'hints.timeoutSeconds': 12, 'hints.max': 7 }).loop;
    assert.deepEqual([inRange.config.hints.timeoutMs, inRange.config.hints.max], [12_000, 7]);
    const { loop } = engineOnStore(store, clock, values);
    assert.deepEqual([loop.config.hints.timeoutMs, loop.config.hints.max, loop.config.session.idleTimeoutMs], [45_000, 5, 5 * 60_000]);
    assert.equal(loop.hints.status().state, 'idle');
    assert.match(loop.hints.status().reason, /No language model/);
    await store.close();
  });

  it('hands the host a hints job handler only when hints are enabled and an LLM exists', async () => {
    const { store, clock } = await openTestStore();
    const llm = { label: 'fake', complete: async () => 'Which bundler is used?' };
    const on = engineOnStore(store, clock, { 'hints.enabled': true }, { llm }).loop;
    assert.equal(on.hints.jobHandler()?.type, 'hints');
    assert.equal(on.hints.status().state, 'running');
    const off = engineOnStore(store, clock, {}, { llm }).loop;
    assert.equal(off.hints.jobHandler(), undefined);
    await store.close();
  });
});

describe('feedback loop status', () => {
  it('reports telemetry, hints worker state, predictor readiness, open sessions and knowledge stats', async () => {
    const { store, clock } = await openTestStore();
    const { loop } = engineOnStore(store, clock, { 'feedback.predictorMinSessions': 1 });
    await loop.sessions.start({ sessionKey: 'a' });
    let s = feedbackLoopStatus(loop, { nowMs: clock.now() });
    assert.deepEqual([s.openSessions, s.predictor.sessionsTrained, s.predictor.live, s.hints.state], [1, 0, false, 'disabled']);
    await loop.sessions.end('a');
    s = feedbackLoopStatus(loop, { nowMs: clock.now() });
    assert.equal(s.openSessions, 0);
    assert.ok(s.telemetry.lastRunAt);
    assert.equal(s.knowledge.aspectCount, 0);
    await store.close();
  });
});
