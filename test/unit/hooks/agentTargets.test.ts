import { strict as assert } from 'node:assert';
import { agentStatusSection, capturedTodayLine } from '../../../src/extension/agents/agentStatusText';
import { findNode, hookTargets } from '../../../src/extension/agents/agentTargets';

describe('agents: status text and targets', () => {
  it('says how many memories were captured today and from where', () => {
    assert.equal(capturedTodayLine([]), 'Captured today: none');
    assert.equal(capturedTodayLine([
      { harness: 'claude-code', capturedToday: 1, capturedTotal: 4 },
      { harness: 'vscode-chat-history', capturedToday: 2, capturedTotal: 2, lastCaptureAt: '2026-12-02T04:00:00.000Z' },
    ]), 'Captured today: 3 (VS Code chat history 2, Claude Code 1)');
    const doc = agentStatusSection(
      [{ targetId: 'claude-code:user', harness: 'claude-code', file: '/h/.claude/settings.json', format: 'claude-settings', written: [], createdFile: false, store: '/s', connectedAt: '2026-12-02T03:00:00Z' }],
      [{ harness: 'claude-code', capturedToday: 1, capturedTotal: 4, lastInjectionAt: '2026-12-02T03:10:00.000Z', lastCaptureAt: '2026-12-02T03:20:00.000Z' }],
      { enabled: true, folder: '/ws/chatSessions', stats: { files: 2, requestsCaptured: 3, turnsCaptured: 5, requestsSkipped: 1, rewrites: 0, skips: { lines: 1, mutations: 2, requests: 0 }, errors: 0 } });
    assert.match(doc, /\| Claude Code \| `\/h\/\.claude\/settings\.json` \| 2026-12-02 03:10 UTC \| 2026-12-02 03:20 UTC \| 1 \| 4 \|/);
    assert.match(doc, /Unknown shapes skipped: 3 \(lines 1, mutations 2, requests 0\)/);
  });

  it('offers user-level targets always and workspace ones with a folder; finds node or refuses Electron', () => {
    assert.deepEqual(hookTargets('/h', undefined).map((t) => t.id), ['vscode:user', 'claude-code:user']);
    assert.deepEqual(hookTargets('/h', '/ws').map((t) => t.file), ['/h/.copilot/hooks/agent-memory.json', '/h/.claude/settings.json', '/ws/.github/hooks/agent-memory.json', '/ws/.claude/settings.local.json']);
    assert.equal(findNode('', 'linux', '/usr/share/code/code'), undefined);
    assert.equal(findNode('', 'linux', '/opt/node-24/bin/node'), '/opt/node-24/bin/node');
    assert.equal(findNode(process.env.PATH, process.platform, '/usr/share/code/code')?.endsWith('node'), true);
  });
});
