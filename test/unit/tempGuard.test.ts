import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { makeTempDir } from './helpers/tempDir';

const require = createRequire(__filename);
const guard = require('../../scripts/tempGuard.cjs') as {
  leftoversIn(dir: string): string[];
  leftoverMessage(dir: string, names: readonly string[]): string | undefined;
  removeRunTemp(dir: string): void;
};

describe('test-layer temp guard', () => {
  it('lists only our leftover folders and removes the run folder with everything in it', () => {
    const { dir, cleanup } = makeTempDir('am-guard-');
    try {
      const run = join(dir, 'run');
      mkdirSync(run);
      assert.deepEqual(guard.leftoversIn(run), []);
      assert.equal(guard.leftoverMessage(run, []), undefined);
      for (const name of ['agent-memory-it-chat-x1', 'am-recall-cli-y2', 'devset-small-z3', 'tsx-1000', '.org.chromium.Chromium.abc']) mkdirSync(join(run, name));
      writeFileSync(join(run, 'vscode-ipc-1.sock'), '');
      assert.deepEqual(guard.leftoversIn(run), ['agent-memory-it-chat-x1', 'am-recall-cli-y2', 'devset-small-z3']);
      assert.equal(guard.leftoverMessage(run, guard.leftoversIn(run)), `temp folders left behind by tests (3) in ${run}: agent-memory-it-chat-x1, am-recall-cli-y2, devset-small-z3`);
      guard.removeRunTemp(run);
      assert.equal(existsSync(run), false);
      assert.deepEqual(guard.leftoversIn(run), [], 'a missing folder has no leftovers');
    } finally {
      cleanup();
    }
  });
});
