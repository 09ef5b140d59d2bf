import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, frameWith, plainText, runAllMaintenance, runPaletteCommand, waitForText, waitForWorkbench } from './workbench';

/** The editor tabs' labels (to prove no "Untitled" document was opened). */
async function tabLabels(page: Page): Promise<string[]> {
  return page.locator('.tabs-container .tab .label-name').allInnerTexts();
}

/** Closes an editor tab by its label (a middle click, like a person would), leaving the others. */
async function closeTab(page: Page, label: RegExp): Promise<void> {
  const tab = page.locator('.tabs-container .tab', { hasText: label }).first();
  await tab.click({ button: 'middle' });
  await tab.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
}

/**
 * Status and reports a person can read: Show Status and the maintenance report open rendered in
 * titled tabs of their own (no untitled, dirty document that chat would attach; documentPanels.ts),
 * and maintenance ends with a one-line human summary and a "Show Report" button. The reload of a
 * report is in whyAndDocuments.e2e.ts.
 */
export const tests: E2eTest[] = [
  {
    name: 'Memory: Show Status opens a rendered, read-only tab with the feedback statistics',
    async run({ page, screenshot }) {
      const untitled = (await tabLabels(page)).filter((l) => /^Untitled/.test(l)).length;
      await runPaletteCommand(page, 'Memory: Show Status');
      const preview = await frameWith(page, 'main.document h1', /Agent Memory status/);
      const text = await plainText(preview.locator('body'));
      assert.match(text, /Aspect weights \(feedback\)/);
      assert.match(text, /Feedback loop \(this window\)/);
      assert.match(text, /Entity health/);
      assert.doesNotMatch(text, /\*\*/, 'rendered, not raw Markdown');
      assert.equal((await tabLabels(page)).filter((l) => /^Untitled/.test(l)).length, untitled, 'no untitled document');
      assert.ok((await tabLabels(page)).includes('Memory Status'), 'a titled tab');
      await screenshot('status-preview');
      await closeTab(page, /Memory Status/);
    },
  },
  {
    name: 'Memory: Run Maintenance ends with a human summary and Show Report opens the full report',
    async run({ page, screenshot }) {
      await waitForWorkbench(page);
      const toast = await runAllMaintenance(page, 90_000);
      const message = await waitForText(toast.locator('.notification-list-item-message'), /^Maintenance: .+\.$/);
      console.log(`  ${message}`);
      assert.doesNotMatch(message, /snapshotSeq|journalGeneration|aspectsDecayed/, 'no internal counter names');
      assert.match(message, /nothing to repair|integrity problems found/);
      await screenshot('maintenance-summary');
      await toast.locator('.monaco-button', { hasText: 'Show Report' }).click();
      const preview = await frameWith(page, 'main.document h1', /Maintenance report/);
      assert.match(await plainText(preview.locator('body')), /Check store integrity[\s\S]*status: completed/);
      await screenshot('maintenance-report');
      await closeTab(page, /Maintenance Report, /);
    },
  },
];
