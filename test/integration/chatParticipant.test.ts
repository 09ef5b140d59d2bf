import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { waitFor } from './waitFor';

interface ChatRequestRecord {
  readonly prompt: string;
  readonly command: string | undefined;
  readonly sequence: number;
}

const LAST_REQUEST_COMMAND = 'agentMemory._lastChatRequest';

describe('@memory chat participant', () => {
  before(async () => {
    await vscode.extensions.getExtension('agent-memory.agent-memory')?.activate();
  });

  it('receives "@memory hello" sent through workbench.action.chat.open', async () => {
    const before = await vscode.commands.executeCommand<ChatRequestRecord | undefined>(LAST_REQUEST_COMMAND);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@memory hello' });
    const seen = await waitFor('the @memory participant to handle the request', async () => {
      const last = await vscode.commands.executeCommand<ChatRequestRecord | undefined>(LAST_REQUEST_COMMAND);
      return last && last.sequence !== before?.sequence ? last : undefined;
    }, 45_000, 200);
    assert.equal(seen.prompt, 'hello');
    assert.equal(seen.command, undefined);
  });
});
