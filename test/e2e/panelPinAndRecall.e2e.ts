import { strict as assert } from 'node:assert';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, expandView, openMemoryContainer, plainText, runPaletteCommand, viewPane, waitForText } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
/** Remembered through "Memory: Remember Selection"; the extraction job turns it into entities. */
const NOTE = 'The shelf service uses SQLite in WAL mode. We decided to use Python 3.11 for shelf. Never store dates without UTC.';
/** Extraction runs as a background job after the write. */
const EXTRACTION_TIMEOUT_MS = 90_000;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The Knowledge panel with data: a remembered note becomes entities (aspect bars), pinning from
 * the panel shows in the Knowledge Graph tree, and the recall playground explains a hit. This file
 * adds memories, so it sorts after the files that expect an empty store (memoryContainer.e2e.ts).
 */
export const tests: E2eTest[] = [
  {
    name: 'Knowledge panel: a remembered note becomes entities; aspect bars show; pin from the panel shows in the tree',
    async run({ page, screenshot, webview }) {
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge');
      await runPaletteCommand(page, 'File: New Untitled Text File');
      await page.locator('.editor-instance .monaco-editor textarea').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
      await page.keyboard.type(NOTE);
      await page.keyboard.press('Control+A');
      await runPaletteCommand(page, 'Memory: Remember Selection');
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-entities').click();
      await waitForText(panel.locator('.list-meta'), /^[1-9]\d* entit/, EXTRACTION_TIMEOUT_MS);
      const withAspects = panel.locator('.list .row', { hasText: /[1-9]\d*a / }).first();
      await withAspects.waitFor({ state: 'visible', timeout: EXTRACTION_TIMEOUT_MS });
      const name = await plainText(withAspects.locator('.name'));
      await withAspects.click();
      await waitForText(panel.locator('.detail h2'), new RegExp(escapeRegExp(name)));
      assert.ok(await panel.locator('.detail .aspect .bar-fill').count() > 0, 'aspect weight bars');
      const pin = panel.locator('.detail .actions button[aria-pressed]');
      if ((await pin.getAttribute('aria-pressed')) === 'true') { await pin.click(); await panel.locator('.detail .actions button[aria-pressed="false"]').waitFor({ timeout: UI_TIMEOUT_MS }); }
      await panel.locator('.detail .actions button[aria-pressed="false"]').click();
      await panel.locator('.detail .actions button[aria-pressed="true"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      // In a narrow sidebar the detail replaces the list: Back shows the list again (a wide one shows both).
      if (await panel.locator('.back').isVisible()) await panel.locator('.back').click();
      await panel.locator('.list .row .pin-toggle.on').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await screenshot('knowledge-panel-pinned');
      await expandView(page, 'Knowledge Graph');
      const tree = viewPane(page, 'Knowledge Graph');
      await waitForText(tree, /Pinned\s*1 entity/);
      // The section may still be collapsed from when it was empty: expand it to see its entity.
      const section = tree.locator('.monaco-list-row', { hasText: 'Pinned' }).first();
      if ((await section.getAttribute('aria-expanded')) === 'false') await section.click();
      const treeText = await waitForText(tree, new RegExp(`Pinned[\\s\\S]*${escapeRegExp(name)}`));
      assert.ok(treeText.includes(name));
      await screenshot('knowledge-panel-pinned-tree');
    },
  },
  {
    name: 'Knowledge panel: the recall playground finds the remembered note and explains why',
    async run({ screenshot, webview }) {
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-recall').click();
      await panel.locator('#panel-recall input').fill('which database does the shelf service use?');
      await panel.locator('#panel-recall button[type="submit"]').click();
      await waitForText(panel.locator('.results-wrap'), /[1-9]\d* results? for/);
      assert.match(await plainText(panel.locator('.result-content').first()), /SQLite/);
      await panel.locator('.result .why > summary').first().click();
      const why = await plainText(panel.locator('.result .why').first());
      assert.match(why, /Relevance 1\.00 of 1[\s\S]*Found because it/);
      assert.doesNotMatch(why, /Channels|lexical|traversal|[0-9a-f]{8}-[0-9a-f]{4}-/);
      await screenshot('knowledge-panel-recall-explain');
      await panel.locator('#tab-entities').click();
    },
  },
];
