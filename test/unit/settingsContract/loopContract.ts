/**
 * Session, maintenance, hints, logging, predictor and model settings, through the feedback loop
 * the engine assembles from the settings (as the extension and the CLI get it) and the
 * extension's vscode-free logger.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { createRecordingLogger } from '../../../src/core/logger';
import type { FeedbackLoop } from '../../../src/core/sessions/feedbackLoop';
import { feedbackLoopStatus } from '../../../src/core/sessions/feedbackLoopStatus';
import { systemClock } from '../../../src/core/clock';
import type { ManualClock } from '../../../src/core/clock';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { levelLogger } from '../../../src/extension/host/levelLogger';
import { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import { noProgress } from '../../../src/core/hostContext';
import { addMemory, openTestStore } from '../feedback/graphFixture';
import { engineOnStore } from '../helpers/testEngine';
import { settingContract } from './contractRegistry';

const HOUR = 3_600_000;

describe('settings contract: sessions, maintenance, hints, logging, models', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  beforeEach(async () => { ({ store, clock } = await openTestStore()); });
  afterEach(async () => { await store.close(); });

  const loopWith = (values: Record<string, unknown>): FeedbackLoop => engineOnStore(store, clock, values).loop;

  /** Whether the learned ranker orders each of `n` sessions started and ended one after another. */
  const predictorLive = async (values: Record<string, unknown>, n: number, prefix: string): Promise<boolean[]> => {
    const { sessions } = loopWith(values);
    const live: boolean[] = [];
    for (let i = 0; i < n; i++) {
      live.push((await sessions.start({ sessionKey: `${prefix}${i}` })).predictorLive);
      await sessions.end(`${prefix}${i}`);
    }
    return live;
  };

  settingContract('feedback.predictorMinSessions', 'the learned ranker goes live after that many trained sessions', async () => {
    await store.write('t', (db) => { addMemory(db, clock.now(), { importance: 0.9 }); addMemory(db, clock.now(), { importance: 0.8 }); });
    assert.deepEqual(await predictorLive({ 'feedback.predictorMinSessions': 2 }, 3, 'a'), [false, false, true]);
    assert.deepEqual(await predictorLive({}, 1, 'b'), [false], 'the default 5 is not reached after 3 sessions');
  });

  settingContract('feedback.predictorEnabled', 'off, the learned ranker never goes live', async () => {
    await store.write('t', (db) => { addMemory(db, clock.now(), { importance: 0.9 }); addMemory(db, clock.now(), { importance: 0.8 }); });
    assert.deepEqual(await predictorLive({ 'feedback.predictorMinSessions': 1 }, 2, 'a'), [false, true]);
    assert.deepEqual(await predictorLive({ 'feedback.predictorMinSessions': 1, 'feedback.predictorEnabled': false }, 2, 'b'), [false, false]);
  });

  settingContract('sessions.idleTimeoutMinutes', 'a session idle longer than it is ended by the sweep', async () => {
    await loopWith({}).sessions.start({ sessionKey: 'idle' });
    clock.advance(10 * 60_000);
    assert.equal((await loopWith({}).sessions.sweep()).length, 0, 'the default 30 minutes keeps a 10-minute idle session');
    assert.deepEqual((await loopWith({ 'sessions.idleTimeoutMinutes': 5 }).sessions.sweep()).map((r) => r.sessionKey), ['idle']);
  });

  settingContract('maintenance.scheduleEnabled', 'off, no scheduled maintenance run happens', async () => {
    assert.equal(await loopWith({ 'maintenance.scheduleEnabled': false }).maintenance.runIfDue(), undefined);
    assert.ok(await loopWith({}).maintenance.runIfDue(), 'the default runs when due');
  });

  settingContract('maintenance.intervalHours', 'a scheduled run is due again after it', async () => {
    assert.ok(await loopWith({}).maintenance.runIfDue());
    clock.advance(2 * HOUR);
    assert.equal(await loopWith({}).maintenance.runIfDue(), undefined, 'the default 24 hours: not due after 2');
    assert.ok(await loopWith({ 'maintenance.intervalHours': 1 }).maintenance.runIfDue());
  });

  settingContract('hints.enabled', 'on, the hints worker is armed (idle until a language model is set) instead of disabled', () => {
    assert.equal(feedbackLoopStatus(loopWith({}), { nowMs: clock.now() }).hints.state, 'disabled');
    assert.equal(feedbackLoopStatus(loopWith({ 'hints.enabled': true }), { nowMs: clock.now() }).hints.state, 'idle');
  });

  settingContract('log.level', 'lines below it are dropped from the output channel', () => {
    const lines = (level: string): number => {
      const target = createRecordingLogger();
      const logger = levelLogger(target, () => readMemorySettings((k) => (k === 'log.level' ? level : undefined)).logLevel);
      logger.debug('d'); logger.info('i'); logger.warn('w');
      return target.lines.length;
    };
    assert.equal(lines('info'), 2);
    assert.equal(lines('debug'), 3);
    assert.equal(lines('error'), 0);
  });

  settingContract('models.embeddingModel', 'the engine loads the model it names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'am-contract-model-'));
    try {
      const settings = readMemorySettings((k) => (k === 'models.embeddingModel' ? join(dir, 'my-model') : undefined));
      const rt = await MemoryEngine.open({ paths: { storeDir: join(dir, 'store'), bundledModelsDir: join(dir, 'models'), cacheDir: join(dir, 'cache') }, logger: createRecordingLogger(), clock: systemClock, llm: undefined, progress: noProgress }, settings);
      try {
        assert.equal(rt.status().model.model, join(dir, 'my-model'));
      } finally {
        await rt.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
