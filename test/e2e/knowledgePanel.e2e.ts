import { strict as assert } from 'node:assert';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, expandView, openMemoryContainer, plainText, waitForText, waitForWorkbench } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';

/**
 * The Knowledge panel (the webview view in the Memory container) in a fresh profile: it opens the
 * store on its first request (no "not open" alert), shows honest empty states or the list, moves
 * between tabs by keyboard, and the recall playground answers. The tests that add data are in
 * panelPinAndRecall.e2e.ts, which sorts after memoryContainer.e2e.ts (it expects an empty graph).
 */
export const tests: E2eTest[] = [
  {
    name: 'Knowledge panel: connects to the store and shows the entity list or its empty state',
    async run({ page, screenshot, webview }) {
      await waitForWorkbench(page);
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge');
      const panel = webview(EXTENSION_ID);
      await panel.locator('[role="tablist"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const meta = panel.locator('.list-meta');
      const text = await waitForText(meta, /\d+ (entity|entities)/);
      console.log(`  Knowledge panel list: ${text}`);
      const alert = panel.locator('.alert');
      assert.equal(await alert.isVisible(), false, `unexpected alert: ${await alert.innerText().catch(() => '')}`);
      if (/^0 entities/.test(text)) assert.match(await plainText(panel.locator('.list-empty')), /No entities yet/);
      else assert.ok(await panel.locator('.list .row').count() > 0);
      await screenshot('knowledge-panel-entities');
    },
  },
  {
    name: 'Knowledge panel: the Overview tab (reached by keyboard) shows stats and focal entities',
    async run({ page, screenshot, webview }) {
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-entities').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      assert.equal(await panel.locator('#tab-overview').getAttribute('aria-selected'), 'true');
      const stats = panel.locator('#panel-overview');
      await waitForText(stats, /Memories\s+\d+/);
      assert.match(await plainText(stats), /Focal entities/);
      await screenshot('knowledge-panel-overview');
    },
  },
  {
    name: 'Knowledge panel: the recall playground answers a query (results with "why", or an honest empty state)',
    async run({ screenshot, webview }) {
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-recall').click();
      await panel.locator('#panel-recall input').fill('how do we store the reading list?');
      await panel.locator('#panel-recall button[type="submit"]').click();
      const out = panel.locator('.results-wrap');
      // An error (store not open, recall failed) shows a .error line instead and times this out with its text.
      const text = await waitForText(out, /results? for/);
      if (/Nothing matched/.test(text)) assert.match(text, /0 results/);
      else assert.ok(await panel.locator('.result .why').count() > 0);
      await screenshot('knowledge-panel-recall');
      await panel.locator('#tab-entities').click();
    },
  },
];
