/**
 * Hint settings, through the engine (the hints job its worker runs for a new memory, on the
 * configuration the settings give), with a fake language model that answers ten questions and
 * records the deadline it was given.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import type { LlmClient } from '../../../src/core/hostContext';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { engineOnStore } from '../helpers/testEngine';
import { settingContract } from './contractRegistry';

async function hintsRun(values: Record<string, unknown>): Promise<{ hints: number; timeoutMs: number | undefined }> {
  const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
  const store = await openMemoryStore({ clock });
  try {
    let timeoutMs: number | undefined;
    const llm: LlmClient = {
      label: 'fake',
      complete: async (_prompt, options) => {
        timeoutMs = options?.timeoutMs;
        return Array.from({ length: 10 }, (_, i) => `Which deploy tool does team ${i} use?`).join('\n');
      },
    };
    // The engine queues a hints job for a new memory when hints are on and a language model is set.
    const engine = engineOnStore(store, clock, { 'hints.enabled': true, 'graph.enabled': false, ...values }, { llm });
    await engine.remember({ content: 'The platform team deploys every service with Helm charts.' });
    await engine.settle();
    const hints = store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_hints')?.n ?? 0);
    return { hints, timeoutMs };
  } finally {
    await store.close();
  }
}

describe('settings contract: hints', () => {
  settingContract('hints.max', 'caps the questions stored per memory', async () => {
    assert.equal((await hintsRun({})).hints, 5);
    assert.equal((await hintsRun({ 'hints.max': 2 })).hints, 2);
  });

  settingContract('hints.timeoutSeconds', "is the hints request's deadline", async () => {
    assert.equal((await hintsRun({})).timeoutMs, 45_000);
    assert.equal((await hintsRun({ 'hints.timeoutSeconds': 10 })).timeoutMs, 10_000);
  });
});
