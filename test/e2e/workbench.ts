import type { Frame, Locator, Page } from 'playwright-core';

/** Timeouts of workbench interactions; generous because the machine may be busy. */
export const UI_TIMEOUT_MS = 30_000;

/** Waits until the workbench shell and its activity bar are on screen. */
export async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
  await page.locator('.activitybar').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** Clicks the "Memory" container in the activity bar (when it is not already open). */
export async function openMemoryContainer(page: Page): Promise<void> {
  const item = page.locator('.activitybar .action-item').filter({ has: page.locator('a[aria-label^="Memory"]') }).first();
  await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const checked = await item.getAttribute('aria-checked') ?? await item.locator('a').getAttribute('aria-checked');
  const open = checked === 'true' || (await item.getAttribute('class'))?.includes('checked');
  if (!open) await item.click();
  await page.locator('.sidebar .composite.title').filter({ hasText: /memory/i }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** The pane (header + body) of a view in the side bar, by its title. */
export function viewPane(page: Page, title: string) {
  return page.locator('.sidebar .pane').filter({ has: page.locator(`.pane-header[aria-label="${title} Section"]`) });
}

/** Text of a locator with Monaco's non-breaking spaces turned into plain spaces. */
export async function plainText(locator: { innerText(): Promise<string> }): Promise<string> {
  return (await locator.innerText()).replace(/\u00a0/g, ' ');
}

/** Expands a side-bar view if it is collapsed. */
export async function expandView(page: Page, title: string): Promise<void> {
  const header = viewPane(page, title).locator('.pane-header');
  await header.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
}

/**
 * Starts a command from the command palette, typing its full "Category: Title", and returns at
 * once: for commands that open an input box or a quick pick of their own.
 */
export async function startPaletteCommand(page: Page, label: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
  // The palette lists the commands known when it was typed into and does not refresh: opened in a
  // window whose extensions are still registering, it can say "No matching commands" for good (a
  // CI run failed so). So it is closed and typed into again until the command shows.
  const deadline = Date.now() + 2 * UI_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    await page.locator('.monaco-workbench').click({ position: { x: 600, y: 10 } }).catch(() => undefined);
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await input.fill(`>${label}`);
    const left = deadline - Date.now();
    const shown = await row.waitFor({ state: 'visible', timeout: Math.max(1_000, Math.min(PALETTE_RETRY_MS, left)) }).then(() => true, () => false);
    if (shown) break;
    if (Date.now() >= deadline) throw new Error(`the command palette never listed "${label}" (${attempt} attempts in ${(2 * UI_TIMEOUT_MS) / 1000} s)`);
    await page.keyboard.press('Escape');
    await input.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS }).catch(() => undefined);
  }
  await page.keyboard.press('Enter');
}

/** How long one typing of the palette may take to list a command before it is typed again. */
const PALETTE_RETRY_MS = 5_000;

/** Runs a command through the command palette and waits until the palette has closed. */
export async function runPaletteCommand(page: Page, label: string): Promise<void> {
  await startPaletteCommand(page, label);
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/**
 * Memory: Run Maintenance → "Run all" from the palette (the command opens a second quick pick, the
 * tasks, right away); returns the notification that ends the run.
 */
export async function runAllMaintenance(page: Page, timeoutMs = 120_000): Promise<Locator> {
  await startPaletteCommand(page, 'Memory: Run Maintenance');
  const widget = page.locator('.quick-input-widget');
  // The task pick reuses the palette's widget: its title says the palette's list has gone.
  await widget.locator('.quick-input-title', { hasText: 'Run memory maintenance' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const pick = widget.locator('.monaco-list-row', { hasText: 'Run all' }).first();
  await pick.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  // A click on a busy machine was once lost while the list was still settling (the pick stayed
  // open until the test timed out): click again until the pick closes.
  for (let attempt = 0; ; attempt++) {
    await pick.click().catch(() => undefined);
    const closed = await widget.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false);
    if (closed) break;
    if (attempt >= 5) throw new Error('the maintenance task pick did not close after "Run all" was clicked six times');
  }
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /Maintenance: / }).last();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  return toast;
}

/** Polls a locator's visible text until it matches pattern; returns the text. */
export async function waitForText(locator: { innerText(): Promise<string> }, pattern: RegExp, timeoutMs = UI_TIMEOUT_MS): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await plainText(locator).catch(() => '');
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`text never matched ${pattern} within ${timeoutMs} ms; last text: ${JSON.stringify(text.slice(0, 200))}`);
}

/**
 * Drags the sash on the side bar's right edge until the side bar is `width` CSS pixels wide;
 * returns the width it ended at (the workbench may clamp it).
 */
export async function setSideBarWidth(page: Page, width: number): Promise<number> {
  // A hover left open by an earlier step (the tree's entity hover) may lie over the sash.
  await page.mouse.move(2, 2);
  await page.keyboard.press('Escape');
  await page.waitForTimeout(400);
  const sidebar = page.locator('.part.sidebar');
  const box = await sidebar.boundingBox();
  if (!box) throw new Error('the side bar is not visible');
  const edge = box.x + box.width;
  const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, top: r.y, height: r.height, visible: r.width > 0 && r.height > 0 };
  }));
  const sash = sashes.filter((s) => s.visible).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
  if (!sash || Math.abs(sash.x - edge) > 6) throw new Error(`no sash at the side bar's edge (x ${edge})`);
  const y = sash.top + Math.min(sash.height / 2, 200);
  await page.mouse.move(sash.x, y);
  await page.mouse.down();
  await page.mouse.move(sash.x + (width - box.width) / 2, y, { steps: 4 });
  await page.mouse.move(box.x + width, y, { steps: 4 });
  await page.mouse.up();
  await page.mouse.move(box.x + width + 200, y);
  return Math.round((await sidebar.boundingBox())?.width ?? 0);
}

/** Types into the chat view's input like a person and sends with Enter. */
export async function askInChat(page: Page, text: string): Promise<void> {
  const input = page.locator('.interactive-input-part .interactive-input-editor').first();
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await input.click();
  // A chat restored after a window reload keeps its draft: clear it, or the text is appended to it.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text, { delay: 5 });
  // The participant suggestion widget may be open after "@memory": close it, then send.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
}

/**
 * The first frame of the page in which `selector` (optionally with text) is visible, waiting for it:
 * finds one webview among several of the same extension (the Knowledge view, a document tab).
 */
export async function frameWith(page: Page, selector: string, hasText?: RegExp, timeoutMs = UI_TIMEOUT_MS): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      const loc = hasText ? f.locator(selector, { hasText }) : f.locator(selector);
      if (await loc.first().isVisible().catch(() => false)) return f;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no frame shows ${selector}${hasText ? ` with ${hasText}` : ''} within ${timeoutMs} ms`);
}
