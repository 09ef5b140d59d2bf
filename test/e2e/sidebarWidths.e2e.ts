import { strict as assert } from 'node:assert';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, expandView, openMemoryContainer, plainText, setSideBarWidth, viewPane, waitForText } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';

interface Rect { readonly x: number; readonly y: number; readonly width: number; readonly height: number }

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function rectOf(locator: Locator): Promise<Rect> {
  const r = await locator.boundingBox();
  assert.ok(r, 'element is on screen');
  return r;
}

/** Width a side bar ends at; the workbench may clamp by a pixel or two. */
async function resize(page: Page, width: number): Promise<void> {
  const got = await setSideBarWidth(page, width);
  assert.ok(Math.abs(got - width) <= 4, `side bar is ${got} px, wanted ${width}`);
  await page.waitForTimeout(300); // the webview's ResizeObserver and media queries settle
}

/** The entity list is back (a previous test may have left the detail open in a narrow view). */
async function showList(panel: FrameLocator): Promise<void> {
  await panel.locator('#tab-entities').click();
  const back = panel.locator('.back');
  if (await back.isVisible()) await back.click();
  await panel.locator('.list .row').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** Checks that a row shows a set pin without hover, spelled-out counter tooltips and a type glyph. */
async function checkRows(page: Page, panel: FrameLocator): Promise<void> {
  await page.mouse.move(5, 5); // nothing hovered
  const pinned = panel.locator('.list .row .pin-toggle.on').first();
  await pinned.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  assert.equal(await pinned.evaluate((el) => (el.ownerDocument.defaultView as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(el).opacity), '1', 'a set pin shows without hover');
  const titles = await panel.locator('.list .row .count').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
  assert.ok(titles.length > 0 && titles.every((t) => /^\d+ (aspects?|attributes?|constraints?|relations?)$/.test(t)), `counter tooltips: ${titles.slice(0, 6).join(' | ')}`);
  // The codicon font loaded from VS Code's app root: type glyphs show, one glyph per type.
  await panel.locator('body.codicons').waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
  const glyphs = await panel.locator('.list .row .codicon').evaluateAll((els) => els.map((e): [string, string] => [e.getAttribute('title') ?? '', e.textContent ?? '']));
  const byType = new Map(glyphs);
  assert.ok(byType.size >= 2, `rows of at least two types: ${[...byType.keys()].join(', ')}`);
  assert.equal(new Set(byType.values()).size, byType.size, `one glyph per type: ${[...byType.keys()].join(', ')}`);
}

/**
 * The sidebar at 300 px and 600 px (issue "a sidebar that breathes"): narrow, the detail replaces
 * the list (with Back); wide, both sit side by side; the legend explains dots, pins, counters and
 * type icons; set pins show without hover; the tree has one icon per type, short section labels and
 * a hover beside (not over) the entity name. Runs after panelPredictorHealth.e2e.ts (entities with
 * health, a pinned entity from panelPinAndRecall.e2e.ts). Screenshots: test-results/e2e-sidebar-*.png.
 */
export const tests: E2eTest[] = [
  {
    name: 'Sidebar 300 px: the detail replaces the list with Back; legend, pins, counters and type icons',
    async run({ page, screenshot, webview }) {
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge');
      await resize(page, 300);
      const panel = webview(EXTENSION_ID);
      await showList(panel);
      await checkRows(page, panel);
      await panel.locator('.legend-toggle').click();
      const legend = panel.locator('#entity-legend');
      await legend.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const legendText = await plainText(legend);
      for (const words of [/green: improving/, /yellow: stable/, /red: declining/, /no dot: fewer than 10 comparisons: not enough evidence yet/, /pinned: always focal/, /3a\s+3 aspects/, /3r\s+3 relations/, /concept/]) assert.match(legendText, words);
      await screenshot('sidebar-300-list-legend');
      await panel.locator('.legend-toggle').click();
      const row = panel.locator('.list .row').first();
      const name = await plainText(row.locator('.name'));
      await row.click();
      await waitForText(panel.locator('.detail h2'), new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(await panel.locator('.list').isVisible(), false, 'narrow: the detail replaces the list');
      assert.equal(await panel.locator('.back').isVisible(), true);
      await screenshot('sidebar-300-detail');
      await panel.locator('.back').click();
      await panel.locator('.list').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      assert.equal(await panel.locator('.detail-pane').isVisible(), false, 'Back shows the list alone');
      assert.equal(await panel.locator('.list .row:focus').count(), 1, 'Back returns focus to the list');
    },
  },
  {
    name: 'Sidebar 300 px: the tree has an icon per type, uncut section labels and a hover beside the name',
    async run({ page, screenshot }) {
      await expandView(page, 'Knowledge Graph');
      const tree = viewPane(page, 'Knowledge Graph');
      await waitForText(tree, /Pinned/);
      const sections = tree.locator('.monaco-list-row[aria-level="1"]');
      type El = { querySelectorAll(s: string): ArrayLike<{ className: string }> };
      const icons = await sections.evaluateAll((rows) => rows.map((r) => Array.from((r as unknown as El).querySelectorAll('.custom-view-tree-node-item-icon, .codicon'))
        .flatMap((i) => i.className.split(/\s+/)).find((c) => c.startsWith('codicon-') && !c.startsWith('codicon-tree-item') && !c.startsWith('codicon-chevron')) ?? ''));
      assert.ok(icons.length >= 3, `sections: ${icons.join(', ')}`);
      assert.equal(new Set(icons).size, icons.length, `one icon per section: ${icons.join(', ')}`);
      const cut = await sections.evaluateAll((rows) => rows.filter((r) => {
        const c = r.querySelector('.monaco-icon-label-container') as { scrollWidth: number; clientWidth: number } | null;
        return c !== null && c.scrollWidth > c.clientWidth + 1;
      }).map((r) => r.textContent ?? ''));
      assert.deepEqual(cut, [], 'no section label is cut at 300 px');
      const entity = tree.locator('.monaco-list-row[aria-level="2"]').first();
      await entity.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const label = entity.locator('.label-name').first();
      await label.hover();
      const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: /mentions?/ }).last();
      await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const text = await plainText(hover);
      assert.match(text, /\d+ mentions? · \d+ aspects? · \d+ attributes? · \d+ relations?/);
      assert.match(text, /Pinned: always focal|Not pinned/);
      assert.equal(overlaps(await rectOf(hover), await rectOf(label)), false, 'the hover does not cover the name');
      await screenshot('sidebar-300-tree-hover');
      await page.mouse.move(900, 500);
    },
  },
  {
    name: 'Sidebar 600 px: the list and the detail sit side by side, no Back',
    async run({ page, screenshot, webview }) {
      await expandView(page, 'Knowledge');
      await resize(page, 600);
      const panel = webview(EXTENSION_ID);
      await showList(panel);
      const row = panel.locator('.list .row').first();
      await row.click();
      await panel.locator('.detail h2').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      assert.equal(await panel.locator('.list').isVisible(), true, 'wide: the list stays');
      assert.equal(await panel.locator('.back').isVisible(), false, 'wide: no Back');
      const list = await rectOf(panel.locator('.list'));
      const detail = await rectOf(panel.locator('.detail'));
      assert.ok(detail.x >= list.x + list.width - 1, `detail (x ${detail.x}) is right of the list (ends ${list.x + list.width})`);
      await checkRows(page, panel);
      await screenshot('sidebar-600');
      await resize(page, 300);
    },
  },
];
