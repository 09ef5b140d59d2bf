import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { MEMBER_ROLE } from '../../src/core/team/serverSchema';
import { initTeamServer } from '../../src/core/team/teamConnection';
import { ADMIN_ROLE, startPostgres } from '../unit/helpers/postgresServer';
import type { PostgresServer } from '../unit/helpers/postgresServer';
import type { E2eTest } from './e2eTypes';
import { openSecondWorkbench } from './secondWorkbench';
import type { SecondWorkbench } from './secondWorkbench';
import { UI_TIMEOUT_MS, expandView, openMemoryContainer, plainText, runPaletteCommand, startPaletteCommand, viewPane, waitForText } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
/** Remembered by Alice in the first window; Bob recalls it in the second. Shaped like panelPinAndRecall's note, which extraction turns into entities with aspects. */
const NOTE = 'The ledger service uses PostgreSQL in WAL mode. We decided to use Go 1.22 for ledger. Never store amounts as floats.';
const QUERY = 'which database does the ledger service use?';
/** Pull, extraction and the UI refresh run in the background on a busy machine. */
const REPLICATION_TIMEOUT_MS = 90_000;

/** Answers the input box whose prompt matches `prompt`. */
async function answerInput(page: Page, prompt: RegExp, value: string): Promise<void> {
  await page.locator('.quick-input-widget', { hasText: prompt }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await page.locator('.quick-input-widget input').fill(value);
  await page.keyboard.press('Enter');
}

/** Memory: Connect Team Memory… as docs/team.md describes it, accepting the offer to share the workspace's project. */
async function connectTeam(page: Page, url: string, password: string): Promise<void> {
  await startPaletteCommand(page, 'Memory: Connect Team Memory');
  await answerInput(page, /connection string/i, url);
  await answerInput(page, /Password of role/, password);
  const offer = page.locator('.notifications-toasts .notification-toast', { hasText: /Share the memories of project/ }).last();
  await offer.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await offer.locator('.monaco-button', { hasText: 'Share Project' }).click();
  await page.locator('.statusbar-item', { hasText: /team/i }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

async function rememberNote(page: Page): Promise<void> {
  await startPaletteCommand(page, 'File: New Untitled Text File');
  await page.locator('.editor-instance .monaco-editor textarea').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
  await page.keyboard.type(NOTE);
  await page.keyboard.press('Control+A');
  await startPaletteCommand(page, 'Memory: Remember Selection');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Expands the tree's type sections until the entity's row shows; returns that row. */
async function expandTreeTo(tree: ReturnType<typeof viewPane>, entityName: string) {
  const row = tree.locator('.monaco-list-row[aria-level="2"]', { hasText: entityName }).first();
  const deadline = Date.now() + REPLICATION_TIMEOUT_MS;
  while (!(await row.isVisible())) {
    const collapsed = tree.locator('.monaco-list-row[aria-level="1"][aria-expanded="false"]');
    if (await collapsed.count() > 0) await collapsed.first().click();
    else await new Promise((r) => setTimeout(r, 500));
    if (Date.now() > deadline) assert.fail(`the tree never showed entity ${entityName}`);
  }
  return row;
}

/** Runs the recall playground until a result matching `content` shows, and returns its card. */
async function recallUntil(panel: FrameLocator, query: string, content: RegExp) {
  await panel.locator('#tab-recall').click();
  const deadline = Date.now() + REPLICATION_TIMEOUT_MS;
  for (;;) {
    await panel.locator('#panel-recall input').fill(query);
    await panel.locator('#panel-recall button[type="submit"]').click();
    await waitForText(panel.locator('.results-wrap'), /results? for|Nothing matched/);
    const card = panel.locator('.result', { has: panel.locator('.result-content', { hasText: content }) }).first();
    if (await card.count() > 0) return card;
    if (Date.now() > deadline) assert.fail(`recall of "${query}" never showed ${content} within ${REPLICATION_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

/** State carried from one step to the next (each step has the harness's per-test time limit). */
interface TeamRun {
  readonly pg: PostgresServer;
  readonly passwords: { readonly alice: string; readonly bob: string };
  second?: SecondWorkbench;
}
let run: TeamRun | undefined;

function started(): TeamRun {
  if (!run) throw new Error('the first team-memory step did not start the server');
  return run;
}

function bobWindow(): SecondWorkbench {
  const second = started().second;
  if (!second) throw new Error('the second window did not start');
  return second;
}

/**
 * docs/team.md end to end: two VS Code windows, each its own machine profile with its own store
 * folder, connected to one real PostgreSQL server (the unit harness's) as two members. Alice
 * shares her project and remembers a note in the first; Bob, in the second, recalls it, marked as
 * Alice's in the Knowledge panel and the Knowledge Graph tree. The steps share `run`; the last one
 * disconnects and stops everything even when an earlier step failed.
 */
export const tests: E2eTest[] = [
  {
    name: 'Team memory 1/5: Alice connects her window to PostgreSQL, shares the project and remembers a note',
    async run({ page, screenshot, webview }) {
      const pg = await startPostgres();
      run = { pg, passwords: { alice: randomBytes(12).toString('base64url'), bob: randomBytes(12).toString('base64url') } };
      await initTeamServer({ connectionString: pg.url(ADMIN_ROLE), password: pg.adminPassword });
      await pg.createRole('alice', run.passwords.alice, MEMBER_ROLE);
      await pg.createRole('bob', run.passwords.bob, MEMBER_ROLE);
      // Window 1 is Alice's, with the extension's default store folder.
      await openMemoryContainer(page);
      await connectTeam(page, pg.url('alice'), run.passwords.alice);
      await rememberNote(page);
      await expandView(page, 'Knowledge');
      const mine = await recallUntil(webview(EXTENSION_ID), QUERY, /PostgreSQL in WAL mode/);
      assert.equal(await plainText(mine.locator('.badge.team')), 'shared by you');
      await screenshot('team-memory-recall-alice');
    },
  },
  {
    name: 'Team memory 2/5: a second window starts on another profile whose store lives in its own folder',
    async run({ page }) {
      const r = started();
      // The same project on both machines: a memory's project is the workspace name, and Bob's
      // checkout of the repository has the same folder name as Alice's (the demo's "workspace").
      r.second = await openSecondWorkbench(page, (dir) => ({ 'agentMemory.store.path': join(dir, 'bob-store') }), 'workspace');
      await openMemoryContainer(r.second.page);
    },
  },
  {
    name: 'Team memory 3/5: Bob connects the second window and recalls Alice\'s note, marked as hers',
    async run() {
      const r = started();
      const second = bobWindow();
      // A member pulls the projects they share (docs/team.md): Bob shares the same project.
      await connectTeam(second.page, r.pg.url('bob'), r.passwords.bob);
      await expandView(second.page, 'Knowledge');
      const theirs = await recallUntil(second.webview(EXTENSION_ID), QUERY, /PostgreSQL in WAL mode/);
      assert.equal(await plainText(theirs.locator('.badge.team')), 'team · alice');
      assert.match(await theirs.locator('.badge.team').getAttribute('title') ?? '', /Shared with the team by alice/);
      await second.screenshot('team-memory-recall-bob');
    },
  },
  {
    name: 'Team memory 4/5: Bob\'s Knowledge panel and tree mark the replica\'s attributes with Alice as author',
    async run() {
      const second = bobWindow();
      const bob = second.page;
      const panel = second.webview(EXTENSION_ID);
      // The replica is extracted in Bob's window (extraction runs locally on replicated content).
      await panel.locator('#tab-entities').click();
      const withAspects = panel.locator('.list .row', { hasText: /[1-9]\d*a / }).first();
      await withAspects.waitFor({ state: 'visible', timeout: REPLICATION_TIMEOUT_MS });
      const name = await plainText(withAspects.locator('.name'));
      await withAspects.click();
      await waitForText(panel.locator('.detail h2'), new RegExp(escapeRegExp(name)));
      await waitForText(panel.locator('.detail .attribute .badge.team').first(), /^team · alice$/);
      await second.screenshot('team-memory-panel-bob');
      // The tree: type section → entity → aspect → attribute row.
      await expandView(bob, 'Knowledge Graph');
      const tree = viewPane(bob, 'Knowledge Graph');
      const entityRow = await expandTreeTo(tree, name);
      await entityRow.click();
      const aspectRow = tree.locator('.monaco-list-row[aria-level="3"]', { hasNotText: /^Relations/ }).first();
      await aspectRow.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await aspectRow.click();
      await waitForText(tree.locator('.monaco-list-row[aria-level="4"]').first(), /team · alice/);
      await second.screenshot('team-memory-tree-bob');
    },
  },
  {
    name: 'Team memory 5/5: both windows disconnect; the second window and the server stop',
    async run({ page }) {
      const r = run;
      run = undefined;
      if (!r) return;
      try {
        if (r.second) await runPaletteCommand(r.second.page, 'Memory: Disconnect Team Memory');
        await runPaletteCommand(page, 'Memory: Disconnect Team Memory');
      } finally {
        await r.second?.close().catch(() => undefined);
        await r.pg.stop();
      }
    },
  },
];
