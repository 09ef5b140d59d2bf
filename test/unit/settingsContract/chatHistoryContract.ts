/**
 * agentMemory.capture.chatHistory: off by default, on it makes the extension follow the window's
 * chat-session folder into the engine's agent capture (capture/chatHistoryPlan.ts, the vscode-free
 * part the extension runs).
 */
import { strict as assert } from 'node:assert';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import type { MemorySettings } from '../../../src/core/config/memorySettings';
import { createRecordingLogger } from '../../../src/core/logger';
import { chatHistoryTarget, chatSessionsFolder, createChatHistoryFollower } from '../../../src/extension/capture/chatHistoryPlan';
import { openTestStore } from '../feedback/graphFixture';
import { engineOnStore } from '../helpers/testEngine';
import { makeTempDir } from '../helpers/tempDir';
import { settingContract } from './contractRegistry';

const settingsOf = (values: Record<string, unknown>): MemorySettings => readMemorySettings((k) => values[k]);
const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'chatSessions');

describe('settings contract: chat history', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir('am-contract-chat-'); });
  afterEach(() => temp.cleanup());

  it('the chat-session folder sits beside the extension\'s workspace storage', () => {
    assert.equal(chatSessionsFolder('/u/User/workspaceStorage/abc/publisher.ext', '/u/User/globalStorage/publisher.ext'), '/u/User/workspaceStorage/abc/chatSessions');
    assert.equal(chatSessionsFolder(undefined, '/u/User/globalStorage/publisher.ext'), '/u/User/globalStorage/emptyWindowChatSessions');
  });

  settingContract('capture.chatHistory', 'off by default; on, the chat-session logs of the window are captured into the store (not @memory requests), once', async () => {
    const { store, clock } = await openTestStore();
    try {
      copyFileSync(join(FIXTURES, 'current-mutation-log.jsonl'), join(temp.dir, 's.jsonl'));
      const engine = engineOnStore(store, clock);
      assert.equal(chatHistoryTarget(settingsOf({}), true, engine, temp.dir), undefined, 'off by default');
      const settings = settingsOf({ 'capture.chatHistory': true });
      assert.equal(chatHistoryTarget(settings, false, engine, temp.dir), undefined, 'not where capture is not allowed (untrusted)');
      const target = chatHistoryTarget(settings, true, engine, temp.dir);
      assert.ok(target);
      const run = async (): Promise<void> => {
        const follower = createChatHistoryFollower(target, settings, { trusted: true, workspace: '/work/billing', project: 'billing' }, createRecordingLogger());
        await follower.scanAll();
        follower.dispose();
      };
      await run();
      const captured = await engine.recentCaptures();
      assert.ok(captured.some((m) => m.harness === 'vscode-chat-history' && /PostgreSQL 16/.test(m.content)), JSON.stringify(captured));
      assert.ok(!captured.some((m) => /PostgreSQL 16 for billing\.$/.test(m.content)), 'the @memory answer is not captured');
      await run(); // a window reload: a new follower, the same store
      assert.equal((await engine.recentCaptures()).length, captured.length);
    } finally {
      await store.close();
    }
  });
});
