/**
 * Issue #27, "Done when", on the demo as `npm start` opens it (the 60 seeded memories, no chat
 * model, no extraction model): the Knowledge panel's list has one entity per route, module and file
 * and no entity with nothing attached; `SHORT_BOOK_PAGES` shows 220 as current and 180 as history,
 * the server shows port 4310, `SQLite` carries the decision; `@memory how do we store the reading
 * list?` answers with at most five memories and a "Show all" follow-up that lists them all.
 * Screenshots: test-results/e2e-demo-*.png. Runs in a window of its own (scripts/vscode/runE2e.mjs).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, askInChat, expandView, frameWith, openMemoryContainer, plainText, runPaletteCommand, viewPane, waitForText, waitForWorkbench } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
const STORE_SUBPATH = join('user-data', 'User', 'globalStorage', EXTENSION_ID, 'store');
/** The e2e runner runs from the repository root (scripts/vscode/runE2e.mjs). */
const REPO = process.cwd();
const SEED = join(REPO, 'test', 'fixtures', 'demoWorkspace', '.agent-memory-seed.jsonl');
const QUESTION = 'how do we store the reading list?';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The Knowledge panel in its editor tab (list and detail side by side), opened by the first step. */
let panel: Frame | undefined;

/** Every row of the virtualised list: scrolls it from top to bottom and reads each row's label. */
async function allRows(frame: Frame): Promise<{ name: string; label: string }[]> {
  const seen = new Map<string, { name: string; label: string }>();
  const list = frame.locator('.list');
  for (let top = 0; ; top += 200) {
    const end = await list.evaluate((el, y) => { el.scrollTop = y; return el.scrollTop + el.clientHeight >= el.scrollHeight - 1; }, top);
    await sleep(300);
    for (const row of await frame.locator('.list .row:not(.placeholder)').all()) {
      const index = await row.getAttribute('data-index');
      if (index !== null && !seen.has(index)) seen.set(index, { name: await plainText(row.locator('.name')), label: (await row.getAttribute('aria-label')) ?? '' });
    }
    if (end) break;
  }
  await list.evaluate((el) => { el.scrollTop = 0; });
  return [...seen.values()];
}

/** Opens the entity named exactly `name` (searched by name) and returns the detail's frame locator root. */
async function openEntity(frame: Frame, name: string): Promise<void> {
  await frame.locator('input[type="search"][aria-label="Search entities by name"]').fill(name);
  const exact = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const deadline = Date.now() + UI_TIMEOUT_MS;
  for (;;) {
    // The entity is in the unfiltered list too: a click can land on that row just before the
    // search's results replace the list, and the detail then never opens. Click the new row.
    const row = frame.locator('.list .row').filter({ has: frame.locator('.name', { hasText: exact }) }).first();
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await row.click();
    try {
      await waitForText(frame.locator('.detail h2'), exact, 5_000);
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
}

/** Opens `entity`'s detail and its `aspect`; returns the aspect block and its current attributes. */
async function currentAttributes(frame: Frame, entity: string, aspect: string) {
  await openEntity(frame, entity);
  const block = await openAspect(frame, aspect);
  const current = block.locator('ul.attributes').first().locator('li.attribute.status-active');
  return { block, current, texts: (await current.locator('.attr-content').allInnerTexts()).map((t) => t.trim()) };
}

/** Expands the named aspect of the open detail and its History; returns the aspect block. */
async function openAspect(frame: Frame, aspect: string) {
  const block = frame.locator('details.aspect').filter({ has: frame.locator('summary .aspect-name', { hasText: new RegExp(`^${aspect}$`) }) });
  await block.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  if ((await block.getAttribute('open')) === null) await block.locator('summary').first().click();
  const history = block.locator('details.history');
  if (await history.count() && (await history.getAttribute('open')) === null) await history.locator('summary').click();
  await block.scrollIntoViewIfNeeded();
  return block;
}

export const tests: E2eTest[] = [
  {
    name: '#27 demo: the demo memories are seeded with the CLI, as npm start seeds them',
    fakeModel: false,
    async run({ page, profileDir }) {
      await waitForWorkbench(page);
      await page.locator('.activitybar a[aria-label^="Memory"]').first().waitFor({ state: 'visible', timeout: 120_000 });
      const dir = join(profileDir, STORE_SUBPATH);
      for (const until = Date.now() + 90_000; !existsSync(dir); await sleep(500)) {
        if (Date.now() > until) throw new Error(`the extension never created its store at ${dir}`);
      }
      const seeded = spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), '--store', dir, 'ingest', SEED], { encoding: 'utf8', timeout: 300_000 });
      assert.equal(seeded.status, 0, `ingest failed: ${seeded.stderr}`);
      assert.match(seeded.stdout, /"ingested":60/);
    },
  },
  {
    name: '#27 demo: the entity list has one entity per route, module and file, and no 0a 0t 0r entry',
    fakeModel: false,
    async run({ page, screenshot }) {
      await runPaletteCommand(page, 'Memory: Open Knowledge Panel in Editor');
      panel = await frameWith(page, '.list-meta', /\d+ (entity|entities)/, 100_000);
      const rows = await allRows(panel);
      const meta = await plainText(panel.locator('.list-meta'));
      console.log(`  ${meta}: ${rows.map((r) => r.name).join(', ')}`);
      assert.equal(String(rows.length), /(\d+) entit/.exec(meta)?.[1], 'every listed entity was read');
      const empty = rows.filter((r) => /\b0 aspects, 0 attributes, (0 constraints, )?0 relations\b/.test(r.label));
      assert.deepEqual(empty.map((r) => r.name), [], 'no entity with nothing attached (0a 0t 0r)');
      const names = rows.map((r) => r.name);
      assert.equal(names.filter((n) => /mark.as.read|\/books\/\{id\}\/read/i.test(n)).length, 1, `one entity for the mark-as-read route: ${names.join(', ')}`);
      assert.ok(names.includes('shelf/server.py') && !names.includes('shelf.server'), 'the module shelf.server is its file shelf/server.py');
      const folded = new Map<string, string[]>();
      for (const n of names) folded.set(n.toLowerCase().replace(/[^a-z0-9]+/g, ''), [...(folded.get(n.toLowerCase().replace(/[^a-z0-9]+/g, '')) ?? []), n]);
      // SHELF_DB (the variable) and shelf.db (the file it names) are two things that fold alike.
      const dup = [...folded.values()].filter((v) => v.length > 1 && !(v.includes('SHELF_DB') && v.includes('shelf.db') && v.length === 2));
      assert.deepEqual(dup, [], 'no two entries differ only by case or punctuation');
      await screenshot('demo-entity-list');
      // A search finds what the list leaves out: the route's path is no entity of its own.
      await panel.locator('input[type="search"][aria-label="Search entities by name"]').fill('/books/');
      await waitForText(panel.locator('.list-meta'), /^0 entities match$/);
      await panel.locator('input[type="search"][aria-label="Search entities by name"]').fill('');
      await waitForText(panel.locator('.list-meta'), new RegExp(`^${rows.length} entities`));
    },
  },
  {
    name: '#27 demo: the Knowledge Graph tree lists the same entities as the panel, none with nothing attached',
    fakeModel: false,
    async run({ page, screenshot }) {
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge Graph');
      const tree = viewPane(page, 'Knowledge Graph');
      await waitForText(tree, /Pinned/);
      const sections = tree.locator('.monaco-list-row[aria-level="1"]');
      const texts = (await sections.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      const counts = texts.filter((t) => !t.startsWith('Pinned')).map((t) => Number(/(\d+)$/.exec(t)?.[1]));
      console.log(`  tree sections: ${texts.join(' | ')}`);
      assert.ok(panel, 'the list step opened the panel');
      const listed = Number(/(\d+) entit/.exec(await plainText(panel.locator('.list-meta')))?.[1]);
      assert.equal(counts.reduce((a, b) => a + b, 0), listed, 'the tree\'s type sections hold the entities the panel lists');
      await screenshot('demo-tree');
    },
  },
  {
    name: '#27 demo: SHORT_BOOK_PAGES shows 220 as current and 180 as history',
    fakeModel: false,
    async run({ screenshot }) {
      assert.ok(panel, 'the list step opened the panel');
      const { block: config, current, texts } = await currentAttributes(panel, 'SHORT_BOOK_PAGES', 'configuration');
      assert.deepEqual(texts, ['SHORT_BOOK_PAGES = 220']);
      assert.match(await plainText(current.locator('.note')), /^220 since 2026-09-18; was 180 \(2026-08-04\)$/);
      assert.match(await plainText(current.locator('.attr-source')), /SHORT_BOOK_PAGES is 220 now/);
      const history = config.locator('details.history li.attribute');
      assert.ok((await history.locator('.attr-content').allInnerTexts()).some((t) => t.trim() === 'SHORT_BOOK_PAGES = 180'), 'the old value is history');
      assert.ok((await plainText(history.first())).includes('superseded'));
      await screenshot('demo-short-book-pages');
    },
  },
  {
    name: '#27 demo: the server entity shows port 4310 as current, 8080 as history',
    fakeModel: false,
    async run({ screenshot }) {
      assert.ok(panel, 'the list step opened the panel');
      const { current, texts } = await currentAttributes(panel, 'server', 'configuration');
      assert.deepEqual(texts, ['port = 4310']);
      assert.match(await plainText(current.locator('.note')), /^4310 since 2026-08-29; was 8080 \(2026-06-02\)$/);
      await screenshot('demo-server-port');
    },
  },
  {
    name: '#27 demo: SQLite carries the decision that moved the reading list to it',
    fakeModel: false,
    async run({ page, screenshot }) {
      assert.ok(panel, 'the list step opened the panel');
      const { texts } = await currentAttributes(panel, 'SQLite', 'decisions');
      assert.ok(texts.some((t) => /move the reading list from the JSON file to SQLite/.test(t)), `the decision is a current attribute of SQLite: ${texts.join(' | ')}`);
      await screenshot('demo-sqlite-decision');
      await runPaletteCommand(page, 'View: Close All Editors');
      panel = undefined;
    },
  },
  {
    name: '#27 demo: @memory "how do we store the reading list?" answers with five memories and "Show all"',
    fakeModel: false,
    async run({ page, screenshot }) {
      const input = page.locator('.interactive-input-part .interactive-input-editor').first();
      if (!(await input.isVisible())) await runPaletteCommand(page, 'Chat: Open Chat');
      await waitForText(page.locator('.interactive-input-part').first(), /Agent Memory \(no chat model\)/, 90_000);
      await askInChat(page, `@memory ${QUESTION}`);
      const response = page.locator('.interactive-item-container.interactive-response').last();
      const text = await waitForText(response, /No chat model composed this answer/, 90_000);
      console.log(`  answer: ${text.replace(/\s+/g, ' ').slice(0, 600)}`);
      assert.match(text, /^From memory \[1\]: Decision: move the reading list from the JSON file to SQLite/m);
      const items = response.locator('ol > li');
      const total = Number(/the best 5 of (\d+), current first/.exec(text)?.[1]);
      assert.ok(total > 5, `the heading names how many were recalled: ${text.slice(0, 300)}`);
      assert.equal(await items.count(), 5, 'five memories listed');
      const showAll = response.locator('a', { hasText: `Show all ${total}` });
      assert.equal(await showAll.count(), 1, 'a "Show all" follow-up');
      // Session-start memories, when any, are one line, not listed.
      assert.ok((text.match(/Also loaded at the start of this conversation/g) ?? []).length <= 1);
      await screenshot('demo-chat-answer');
      // The chat list shows the answer's end; its start (the cited answer and the first items) too.
      // (The chat list scrolls itself, not the page: wheel over it.)
      const box = await response.boundingBox();
      if (box) {
        await page.mouse.move(box.x + box.width / 2, Math.max(box.y, 0) + 200);
        for (let i = 0; i < 8; i++) { await page.mouse.wheel(0, -600); await sleep(150); }
        await sleep(400);
      }
      await screenshot('demo-chat-answer-top');
      await page.mouse.move(5, 5);
      await showAll.first().dispatchEvent('click');
      const all = page.locator('.interactive-item-container.interactive-response').last();
      await waitForText(all, new RegExp(`${total} memories\\*?\\*? for "${QUESTION.replace('?', '\\?')}"`), 90_000);
      assert.equal(await all.locator('ol > li').count(), total, 'Show all lists every recalled memory');
      await screenshot('demo-chat-show-all');
    },
  },
];
