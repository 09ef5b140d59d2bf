import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { recentCaptures } from '../../src/core/capture/agentCapture';
import { openStore } from '../../src/core/store/openStore';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, expandView, openMemoryContainer, plainText, runPaletteCommand, setSideBarWidth, waitForText, waitForWorkbench } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
/** Where the extension keeps its store when agentMemory.store.path is empty (src/extension/host/storeDir.ts). */
const STORE_SUBPATH = join('User', 'globalStorage', EXTENSION_ID, 'store');

const ORM = 'We decided to use Drizzle ORM instead of Prisma for the billing service.';
const ERRORS = 'From now on the API must return RFC 7807 problem details for every error.';
const CENTS = 'We decided that invoice totals are rounded half-even to whole cents.';
const LATER = 'We agreed that the nightly export runs at 02:30 UTC from now on.';

const line = (o: unknown): string => JSON.stringify(o) + '\n';

function storeDirOf(profileDir: string): string | undefined {
  const direct = join(profileDir, 'user-data', STORE_SUBPATH);
  if (existsSync(direct)) return direct;
  const found = readdirSync(profileDir, { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith(STORE_SUBPATH));
  return found ? join(profileDir, found) : undefined;
}

/** The CLI bundled in the installed extension: what Memory: Connect Agents… makes the hooks run. */
function installedCli(profileDir: string): string {
  const root = join(profileDir, 'extensions');
  const dir = readdirSync(root).find((d) => d.startsWith(`${EXTENSION_ID}-`) && existsSync(join(root, d, 'dist', 'cli.js')));
  assert.ok(dir, `the installed extension's dist/cli.js under ${root}`);
  return join(root, dir, 'dist', 'cli.js');
}

/**
 * One agent hook call, as a harness makes it: the payload on stdin of `cli.js hook --harness H
 * --store DIR`. The per-store hook service is off (it would outlive the test).
 */
function hook(cli: string, store: string, harness: string, payload: unknown): void {
  const r = spawnSync(process.execPath, [cli, 'hook', '--harness', harness, '--store', store], {
    input: JSON.stringify(payload), encoding: 'utf8', timeout: 120_000, env: { ...process.env, AGENT_MEMORY_HOOK_SERVICE: '0' },
  });
  assert.equal(r.status, 0, `hook exited ${r.status}: ${r.stderr}`);
}

async function memoryRow(store: string, content: string): Promise<{ id: string; is_deleted: number } | undefined> {
  const s = await openStore({ dir: store });
  try { return s.read((db) => db.get<{ id: string; is_deleted: number }>('SELECT id, is_deleted FROM memories WHERE content = ?', [content])); } finally { await s.close(); }
}

/**
 * Captures already in the store before this spec seeds its own (the chat-history spec runs
 * earlier in the same profile): the tab's counts are checked relative to them.
 */
async function captureCounts(store: string): Promise<{ all: number; inRecall: number }> {
  const s = await openStore({ dir: store });
  try {
    const rows = s.read((db) => recentCaptures(db, 1000));
    return { all: rows.length, inRecall: rows.filter((r) => r.status === 'active').length };
  } finally { await s.close(); }
}

/** The tab's summary line: `all` captures listed, `inRecall` of them still recalled (all made today, in this run, so "today" counts those too). */
const metaLine = (all: number, inRecall: number): RegExp => new RegExp(`${all} captured from agent conversations · ${inRecall} today · ${inRecall} in recall`);

async function waitForStore(profileDir: string): Promise<string> {
  const until = Date.now() + 60_000;
  for (;;) {
    const dir = storeDirOf(profileDir);
    if (dir && readdirSync(dir).length > 0) return dir;
    if (Date.now() > until) throw new Error(`the extension never opened its store under ${profileDir}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const card = (panel: FrameLocator, text: string) => panel.locator('#panel-captured .capture', { hasText: text });

/** The panel open as an editor tab: its webview is the only visible one of the extension once the side bar is hidden. */
async function editorPanel(page: Page): Promise<FrameLocator> {
  const frame = page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`).filter({ visible: true });
  await frame.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  assert.equal(await frame.count(), 1, 'one visible Knowledge webview');
  return frame.contentFrame().frameLocator('#active-frame');
}

let temp: string | undefined;
let cli = '';
let store = '';
let before = { all: 0, inRecall: 0 };

/**
 * The Knowledge panel's Captured tab (issue 23, "Seeing and undoing it"): memories captured by the
 * bundled CLI's `hook` (Claude Code Stop over a JSONL transcript, VS Code Stop over a Copilot
 * transcript) show with agent, time, session and turn; Wrong or outdated retires one (kept in the
 * list as history, out of recall), Forget deletes another; a new capture shows without a click;
 * at 300 px in the side bar and as an editor tab.
 */
export const tests: E2eTest[] = [
  {
    name: 'Captured tab: agent hook calls (the bundled CLI) capture into the window\'s store',
    async run({ page, webview, profileDir }) {
      await waitForWorkbench(page);
      // run alone (a name filter), this is the session's first test: the container shows once the extension is registered
      for (let attempt = 1; ; attempt++) {
        try { await openMemoryContainer(page); break; } catch (e) { if (attempt >= 4) throw e; }
      }
      await expandView(page, 'Knowledge');
      const panel = webview(EXTENSION_ID);
      await panel.locator('[role="tablist"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      store = await waitForStore(profileDir);
      cli = installedCli(profileDir);
      before = await captureCounts(store);
      temp = mkdtempSync(join(tmpdir(), 'agent-memory-e2e-captured-'));
      const project = join(temp, 'billing');
      const cc = join(temp, 'cc-42.jsonl');
      writeFileSync(cc, line({ type: 'user', message: { role: 'user', content: 'Hi there' }, uuid: 'u0', sessionId: 'cc-42', cwd: project, timestamp: '2026-12-02T09:00:00Z' })
        + line({ type: 'user', message: { role: 'user', content: ORM }, uuid: 'u1', sessionId: 'cc-42', cwd: project, timestamp: '2026-12-02T09:00:05Z' })
        + line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Understood, switching to Drizzle.' }] }, uuid: 'a1', sessionId: 'cc-42', timestamp: '2026-12-02T09:00:09Z' })
        + line({ type: 'user', message: { role: 'user', content: CENTS }, uuid: 'u2', sessionId: 'cc-42', cwd: project, timestamp: '2026-12-02T09:01:00Z' }));
      hook(cli, store, 'claude-code', { session_id: 'cc-42', transcript_path: cc, cwd: project, hook_event_name: 'Stop', stop_hook_active: false });
      const copilot = join(temp, 'vs-7.jsonl');
      writeFileSync(copilot, line({ type: 'session.start', data: { sessionId: 'vs-7' }, id: 'e0', timestamp: '2026-12-02T10:00:00Z' })
        + line({ type: 'user.message', data: { content: ERRORS }, id: 'e1', timestamp: '2026-12-02T10:00:01Z' }));
      hook(cli, store, 'vscode', { timestamp: Date.now(), hook_event_name: 'Stop', session_id: 'vs-7', transcript_path: copilot, cwd: project, stop_hook_active: false });
      for (const text of [ORM, CENTS]) assert.equal((await memoryRow(store, text))?.is_deleted, 0, `captured: ${text}`);
    },
  },
  {
    name: 'Captured tab: hook captures show with agent, session and time (sidebar 300 px)',
    async run({ page, screenshot, webview }) {
      const panel = webview(EXTENSION_ID);
      const got = await setSideBarWidth(page, 300);
      assert.ok(Math.abs(got - 300) <= 4, `side bar is ${got} px`);
      await panel.locator('#tab-captured').click();
      assert.equal(await panel.locator('#tab-captured').getAttribute('aria-selected'), 'true');
      for (const text of [ORM, CENTS, ERRORS]) await card(panel, text.slice(0, 40)).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const orm = await plainText(card(panel, 'Drizzle ORM'));
      assert.match(orm, /Claude Code/);
      assert.match(orm, /session cc-42 · turn u1 · project billing/);
      assert.match(orm, /today \d\d:\d\d/);
      assert.match(await plainText(card(panel, 'RFC 7807')), /VS Code agents[\s\S]*session vs-7/);
      assert.match(await plainText(panel.locator('.captured-meta')), metaLine(before.all + 3, before.inRecall + 3));
      // every tab label fits at 300 px
      const tabs = await panel.locator('.tab').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return { right: r.right, text: e.textContent ?? '' }; }));
      const width = await panel.locator('.tabs').evaluate((e) => e.getBoundingClientRect().right);
      assert.ok(tabs.every((t) => t.right <= width + 1), `tabs inside the panel: ${JSON.stringify(tabs)} within ${width}`);
      await page.mouse.move(5, 5);
      await screenshot('captured-300');
    },
  },
  {
    name: 'Captured tab: Wrong or outdated retires one (kept as history), Forget deletes another, a new capture shows by itself',
    async run({ page, screenshot, webview }) {
      const panel = webview(EXTENSION_ID);
      await card(panel, 'Drizzle ORM').locator('button[data-action="markWrong"]').click();
      await waitForText(panel.locator('.capture-status'), /Marked “We decided to use Drizzle ORM.*” wrong or outdated: out of recall, kept as history/);
      await card(panel, 'Drizzle ORM').locator('.badge.stale').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      assert.match(await plainText(card(panel, 'Drizzle ORM')), /wrong or outdated[\s\S]*Kept as history, not recalled\./);
      assert.equal(await card(panel, 'Drizzle ORM').locator('button[data-action="markWrong"]').count(), 0);
      assert.equal((await memoryRow(store, ORM))?.is_deleted, 1, 'the row stays, retired');

      const forget = card(panel, 'RFC 7807').locator('button[data-action="forget"]');
      await forget.click();
      await waitForText(forget, /Forget for good\?/);
      await screenshot('captured-300-confirm-forget');
      await forget.click();
      await waitForText(panel.locator('.capture-status'), /Forgot “From now on the API must return RFC 7807.*”: deleted/);
      await card(panel, 'RFC 7807').waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      assert.equal(await memoryRow(store, ERRORS), undefined, 'forgotten: no row left');
      assert.match(await plainText(panel.locator('.captured-meta')), metaLine(before.all + 2, before.inRecall + 1));

      // captured by another process while the tab shows: it appears without a click
      const cc = join(temp as string, 'cc-43.jsonl');
      writeFileSync(cc, line({ type: 'user', message: { role: 'user', content: LATER }, uuid: 'u1', sessionId: 'cc-43', timestamp: '2026-12-02T11:00:00Z' }));
      hook(cli, store, 'claude-code', { session_id: 'cc-43', transcript_path: cc, cwd: temp, hook_event_name: 'Stop' });
      await card(panel, 'nightly export').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const first = await plainText(panel.locator('#panel-captured .capture').first());
      assert.match(first, /nightly export runs at 02:30 UTC[\s\S]*session cc-43/, 'newest first');
      await page.mouse.move(5, 5);
      await screenshot('captured-300-after');
    },
  },
  {
    name: 'Captured tab: as an editor tab',
    async run({ page, screenshot }) {
      await runPaletteCommand(page, 'View: Toggle Primary Side Bar Visibility');
      try {
        await runPaletteCommand(page, 'Memory: Open Knowledge Panel in Editor');
        const panel = await editorPanel(page);
        await panel.locator('#tab-captured').click();
        await card(panel, 'nightly export').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
        assert.match(await plainText(card(panel, 'Drizzle ORM')), /wrong or outdated/);
        assert.equal(await card(panel, 'RFC 7807').count(), 0);
        await page.mouse.move(5, 5);
        await screenshot('captured-editor');
        await panel.locator('#tab-entities').click();
      } finally {
        await runPaletteCommand(page, 'View: Close All Editors').catch(() => undefined);
        await runPaletteCommand(page, 'View: Toggle Primary Side Bar Visibility').catch(() => undefined);
        if (temp) rmSync(temp, { recursive: true, force: true });
        temp = undefined;
      }
    },
  },
];
