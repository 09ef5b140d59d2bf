/**
 * Hint settings, through the hints job handler on the configuration the feedback loop resolves
 * from them (as the extension's runtime wires it), with a fake language model that answers ten
 * questions and records the deadline it was given.
 */
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../src/core/clock';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { createHintsJobHandler } from '../../../src/core/hints/hintsJobHandler';
import type { LlmClient } from '../../../src/core/hostContext';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import { silentLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { createFeedbackLoop } from '../../../src/core/sessions/feedbackLoop';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { settingContract } from './contractRegistry';

async function hintsRun(values: Record<string, unknown>): Promise<{ hints: number; timeoutMs: number | undefined }> {
  const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
  const store = await openMemoryStore({ clock });
  try {
    const s = readMemorySettings((k) => values[k]);
    let timeoutMs: number | undefined;
    const llm: LlmClient = {
      label: 'fake',
      complete: async (_prompt, options) => {
        timeoutMs = options?.timeoutMs;
        return Array.from({ length: 10 }, (_, i) => `Which deploy tool does team ${i} use?`).join('\n');
      },
    };
    const loop = createFeedbackLoop({ store, clock, logger: silentLogger, llm }, { ...s.feedbackLoop, jobs: s.jobs, graph: s.graph });
    await remember(store, { content: 'The platform team deploys every service with Helm charts.' }, defaultRememberDeps(clock, { enqueue: { embed: false, extract: false, hints: true } }));
    await new JobWorker({ store, handlers: [createHintsJobHandler({ llm, config: loop.config.hints, newId: randomUUID })], config: s.jobs, clock, logger: silentLogger }).drain();
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
