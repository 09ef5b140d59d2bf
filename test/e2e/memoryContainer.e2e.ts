import { strict as assert } from 'node:assert';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, expandView, openMemoryContainer, plainText, runPaletteCommand, viewPane, waitForText, waitForWorkbench } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
/** Text of the Knowledge Graph view's welcome content (package.json contributes.viewsWelcome). */
const GRAPH_WELCOME = 'No entities yet';
/** The Knowledge webview (webview/knowledge.ts) talks about entities/memories in every state. */
const KNOWLEDGE_TEXT = /entit|memor/i;

export const tests: E2eTest[] = [
  {
    name: 'the Memory container opens from the activity bar and shows the Knowledge Graph tree (welcome or entities)',
    async run({ page, screenshot }) {
      await waitForWorkbench(page);
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge Graph');
      // Tests share one workbench: an empty store shows the welcome content, a filled one the tree.
      const pane = viewPane(page, 'Knowledge Graph');
      const welcome = pane.locator('.welcome-view-content');
      const rows = pane.locator('.monaco-list-row');
      await welcome.or(rows.first()).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      if (await welcome.isVisible()) {
        assert.match(await plainText(welcome), new RegExp(GRAPH_WELCOME));
      } else {
        assert.ok(await rows.count() > 0, 'the Knowledge Graph tree shows neither its welcome content nor entities');
        console.log(`  Knowledge Graph tree: ${(await plainText(rows.first())).replace(/\s+/g, ' ')} …`);
      }
      await screenshot('memory-container');
    },
  },
  {
    name: 'the Knowledge webview view renders its content',
    async run({ page, screenshot, webview }) {
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge');
      const body = webview(EXTENSION_ID).locator('body');
      await body.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const text = await waitForText(body, KNOWLEDGE_TEXT);
      console.log(`  Knowledge webview says: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
      await screenshot('knowledge-view');
    },
  },
  {
    name: 'the palette command "Memory: Show Logs" opens the Agent Memory output',
    async run({ page, screenshot }) {
      // Run alone (runE2e.mjs "Show Logs") this is the first spec: a palette opened before the
      // extension's contributions arrive never lists the command. The Memory container shows they did.
      await waitForWorkbench(page);
      await openMemoryContainer(page);
      await runPaletteCommand(page, 'Memory: Show Logs');
      const panel = page.locator('.part.panel');
      await panel.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const output = panel.locator('.view-lines');
      // Wait for the output editor itself, not for a line naming Agent Memory: once the channel holds
      // more than a screenful, no line in view needs to (the Output dropdown names the channel).
      await output.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await waitForText(panel, /Agent Memory/);
      // The output view follows the end of the channel and renders only the lines in view: once this
      // window has logged more than a screenful (after the chat-history spec's window reload, say),
      // the first line, this window's "activating", is off screen. Go to the top before reading.
      await output.first().click();
      await page.keyboard.press('Control+Home');
      await waitForText(output.first(), /Agent Memory \S+ activating/);
      await screenshot('show-logs');
    },
  },
];
