import { strict as assert } from 'node:assert';
import type { EngineStatus } from '../../../src/core/engine/memoryEngine';
import { formatStatusMarkdown, statusBarText } from '../../../src/extension/status/statusText';

const base: EngineStatus = {
  memories: 3, pendingJobs: 0, deadJobs: 0, model: { state: 'ready', model: 'use-lite' }, llm: undefined, storeDir: '/s', storeRecovery: undefined,
};

describe('status with a store recovery', () => {
  it('shows the recovery report in Show Status and a warning in the status bar when writes were lost', () => {
    const message = 'Memory store recovered: … 3 acknowledged transaction(s) were lost. Run `agent-memory store check` …';
    const s: EngineStatus = { ...base, storeRecovery: { message, lostRecords: 3, lossExact: true } };
    assert.match(formatStatusMarkdown(s, 'off', true), /- Store recovery: Memory store recovered: .*3 acknowledged transaction\(s\) were lost/);
    assert.match(statusBarText(s), /\$\(warning\)/);
  });

  it('says nothing about recovery after a clean open, and no warning when nothing was lost', () => {
    assert.doesNotMatch(formatStatusMarkdown(base, 'off', true), /recovery/i);
    assert.doesNotMatch(statusBarText({ ...base, storeRecovery: { message: 'Memory store recovered: … No acknowledged write was lost.', lostRecords: 0, lossExact: true } }), /warning/);
  });
});
