import { strict as assert } from 'node:assert';
import { trustGates } from '../../../src/extension/host/trustGates';
import type { TrustInputs } from '../../../src/extension/host/trustGates';

const base: TrustInputs = { trusted: true, captureEnabled: true, llmProvider: 'vscode' };

describe('workspace trust gates', () => {
  it('a trusted workspace with capture on and a provider set enables capture, tool writes and the language model', () => {
    assert.deepEqual(trustGates(base), { capture: true, toolWrites: true, llmAllowed: true, llmActive: true });
  });

  it('an untrusted workspace turns off capture, tool writes and every language model feature whatever the settings say', () => {
    for (const llmProvider of ['vscode', 'openai-compatible', 'none'] as const) {
      for (const captureEnabled of [true, false]) {
        assert.deepEqual(trustGates({ trusted: false, captureEnabled, llmProvider }), { capture: false, toolWrites: false, llmAllowed: false, llmActive: false }, `${llmProvider}/${captureEnabled}`);
      }
    }
  });

  it('agentMemory.capture.enabled off stops capture but not an explicit memory_remember call', () => {
    const g = trustGates({ ...base, captureEnabled: false });
    assert.equal(g.capture, false);
    assert.equal(g.toolWrites, true);
  });

  it('provider "none" leaves language model setup allowed but nothing active', () => {
    const g = trustGates({ ...base, llmProvider: 'none' });
    assert.equal(g.llmAllowed, true);
    assert.equal(g.llmActive, false);
    assert.equal(g.capture, true);
  });

  it('an openai-compatible provider is active in a trusted workspace', () => {
    assert.equal(trustGates({ ...base, llmProvider: 'openai-compatible' }).llmActive, true);
  });
});
