import { strict as assert } from 'node:assert';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, askInChat, plainText, runPaletteCommand, waitForText, waitForWorkbench } from './workbench';

const FACT = 'The shelf service keeps reading lists in SQLite with write-ahead logging.';

/**
 * @memory in a VS Code without any chat model (no fake model installed in this workbench): the
 * request reaches @memory through Agent Memory's memory-only model (src/extension/chat/
 * memoryOnlyModel.ts), a slash command works, and a question is answered with the recalled memory
 * itself, cited, with how to get composed answers.
 */
export const tests: E2eTest[] = [
  {
    name: 'Chat without a language model: @memory /remember, then a question answered with the memory',
    fakeModel: false,
    async run({ page, screenshot }) {
      await waitForWorkbench(page);
      const input = page.locator('.interactive-input-part .interactive-input-editor').first();
      if (!(await input.isVisible())) await runPaletteCommand(page, 'Chat: Open Chat');
      await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      // The chat view's model picker shows Agent Memory's model once the extension offered it.
      const picker = await waitForText(page.locator('.interactive-input-part').first(), /Agent Memory \(no chat model\)/, 90_000);
      console.log(`  chat input: ${picker.slice(0, 200).replace(/\s+/g, ' ')}`);
      await askInChat(page, `@memory /remember ${FACT}`);
      const responses = page.locator('.interactive-item-container.interactive-response');
      await waitForText(responses.last(), /Remembered/, 60_000);
      await askInChat(page, '@memory which database does the shelf service use?');
      // The chat list renders only the rows in view, so the answer is the last rendered response, not the second.
      await waitForText(responses.last(), /No chat model composed this answer/, 60_000);
      const answer = await plainText(responses.last());
      console.log(`  @memory answered: ${answer.slice(0, 400).replace(/\s+/g, ' ')}`);
      assert.match(answer, /From memory \[1\]: The shelf service keeps reading lists in SQLite with write-ahead logging/);
      assert.doesNotMatch(answer, /Language model unavailable/);
      await screenshot('chat-without-model');
    },
  },
];
