import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

const VENDOR = 'agent-memory-fake';

async function ask(model: vscode.LanguageModelChat, prompt: string): Promise<string> {
  const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, new vscode.CancellationTokenSource().token);
  let text = '';
  for await (const chunk of response.text) text += chunk;
  return text;
}

describe('fake language model fixture (installed as a VSIX)', () => {
  let model: vscode.LanguageModelChat;

  before(async () => {
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.equal(models.length, 1, `expected one model from vendor ${VENDOR}; is the fixture VSIX installed?`);
    model = models[0];
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', undefined);
  });

  it('answers the default "hello" rule', async () => {
    assert.equal(await ask(model, 'hello there'), 'Hello from the fake language model.');
  });

  it('echoes prompts that match no rule', async () => {
    assert.equal(await ask(model, 'what is 2+2?'), 'echo: what is 2+2?');
  });

  it('answers with the script a test sets, first matching rule wins', async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', [
      { match: '/^extract/i', reply: '{"entities":["sqlite"]}' },
      { match: 'extract', reply: 'never reached' },
    ]);
    assert.equal(await ask(model, 'Extract entities from: we use sqlite'), '{"entities":["sqlite"]}');
  });

  it('rejects a malformed script with a clear error', async () => {
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('fakeLanguageModel.setScript', [{ reply: 'no match field' }])),
      /rule 0 needs a non-empty string "match"/,
    );
  });
});
