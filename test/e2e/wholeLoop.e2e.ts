import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, askInChat, expandView, openMemoryContainer, plainText, waitForText, waitForWorkbench } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
const QUESTION = '@memory which database does the shelf service use?';
/** The note panelPinAndRecall.e2e.ts remembers; remembered again here (a duplicate is refused) so this spec runs alone too. */
const NOTE = 'The shelf service uses SQLite in WAL mode. We decided to use Python 3.11 for shelf. Never store dates without UTC.';
/**
 * What the model answers, as a real model would: in its own words (no run of five words copied from
 * the note, so nothing is cut as a quote by answerUsage.ts), naming the note's distinctive names
 * (SQLite, WAL), which the question does not contain.
 */
const OWN_WORDS = 'Shelf keeps its reading lists in SQLite, with the WAL journal switched on.';
/** The e2e profile ends chat sessions after one idle minute (runE2e.mjs); the sweep runs every 15 s. */
const SESSION_END_TIMEOUT_MS = 110_000;

/** What the panel shows per entity: its health label and its aspect weights (name → weight text). */
interface EntitySnapshot { readonly health: string; readonly weights: Readonly<Record<string, string>> }

/** Reads every entity of the list: the row's label (health) and, from its detail, the aspect weights. */
async function snapshot(panel: FrameLocator): Promise<Map<string, EntitySnapshot>> {
  await panel.locator('#tab-entities').click();
  const back = panel.locator('.back');
  if (await back.isVisible()) await back.click();
  const rows = panel.locator('.list .row');
  await rows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const out = new Map<string, EntitySnapshot>();
  const count = await rows.count();
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const name = await plainText(row.locator('.name'));
    const label = (await row.getAttribute('aria-label')) ?? '';
    const health = label.slice(label.search(/Health: |No health data yet/));
    await row.click();
    await waitForText(panel.locator('.detail h2'), new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const weights = Object.fromEntries(await panel.locator('.detail .aspect > summary').evaluateAll((els) => els.map((e): [string, string] =>
      [e.querySelector('.aspect-name')?.textContent ?? '', e.querySelector('.weight')?.textContent ?? ''])));
    out.set(name, { health, weights });
    if (await back.isVisible()) await back.click();
  }
  return out;
}

/** The Agent Memory output channel's log file (a LogOutputChannel writes one under the profile's logs). */
function extensionLog(profileDir: string): string {
  const logs = join(profileDir, 'user-data', 'logs');
  const files = readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((f) => /Agent Memory\.log$/.test(f));
  return files.map((f) => readFileSync(join(logs, f), 'utf8')).join('\n');
}

/** Polls the extension's log until a line matches (the log is written asynchronously), after the line `after` if given. */
async function waitForLogLine(profileDir: string, pattern: RegExp, timeoutMs: number, after?: string): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    let text = '';
    try { text = extensionLog(profileDir); } catch { /* the logs folder may not exist yet */ }
    const lines = text.split('\n');
    const from = after === undefined ? 0 : lines.indexOf(after) + 1;
    const line = lines.slice(from).find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > until) throw new Error(`no Agent Memory log line matched ${pattern}; last lines:\n${text.split('\n').slice(-15).join('\n')}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

let before: Map<string, EntitySnapshot> | undefined;
/** The log line of the "opened" action: the session end the second test waits for comes after it. */
let openedLine: string | undefined;

/**
 * The whole loop through the real chat UI: the note is remembered with `@memory /remember`, a
 * question typed into the chat input reaches @memory (the fake language model is the workbench's
 * chat model, so no sign-in or setup dialog), and the model answers in its own words (scripted
 * through the fake model's FAKE_LM_SCRIPT file, E2eContext.fakeModelScript). The user opens the
 * memory the answer showed (its reference): an explicit action ("opened", chatFeedback.ts) that the
 * extension applies at once. The conversation's session ends (one idle minute) and the Knowledge
 * panel shows what the answer's real use did — feedback counters, aspect weights and entity health
 * — nothing written to the store from the test.
 *
 * No 👍 click: chat's Helpful/Unhelpful buttons are shown only when the workbench's telemetry
 * feedback is enabled, and the harness starts code-server with --disable-telemetry, so they never
 * appear here. 👍/👎 are covered by the unit tests of userFeedback.ts and chatFeedback
 * (docs/feedback.md).
 *
 * Self-sufficient: run alone (`runE2e.mjs "Whole loop"`) it remembers the note itself; in the full
 * run it also sees the health rows of panelPredictorHealth.e2e.ts.
 */
export const tests: E2eTest[] = [
  {
    name: 'Whole loop: the note is remembered through @memory and the panel is read before',
    async run({ page, webview, fakeModelScript }) {
      await waitForWorkbench(page);
      // Run alone (the first spec of its workbench), the extension's container appears only once the
      // extension host has scanned the extensions, which takes more than UI_TIMEOUT_MS on a busy machine.
      await page.locator('.activitybar a[aria-label^="Memory"]').first().waitFor({ state: 'attached', timeout: 150_000 });
      writeFileSync(fakeModelScript, JSON.stringify([{ match: '/which database does the shelf service use/i', reply: OWN_WORDS }]));
      // The chat input's model picker names the fake model once its provider is registered.
      await page.locator('.interactive-input-part', { hasText: 'Fake Scripted' }).first().waitFor({ state: 'visible', timeout: 90_000 });
      await askInChat(page, `@memory /remember ${NOTE}`);
      const remembered = page.locator('.interactive-item-container.interactive-response').last();
      const said = await waitForText(remembered, /Remembered|already remember|Language model unavailable/i, 60_000);
      if (/Language model unavailable/.test(said)) {
        // On a loaded machine the workbench can still be resolving the chat model on the first
        // request (a startup race of the workbench, not of @memory, which never ran): ask again.
        console.log('  the first request found no chat model yet; asking again');
        await askInChat(page, `@memory /remember ${NOTE}`);
        await waitForText(page.locator('.interactive-item-container.interactive-response').last(), /Remembered|already remember/i, 60_000);
      }
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge');
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-entities').click();
      // Extraction runs after the remember: wait until an entity has aspects (as panelPinAndRecall does).
      await panel.locator('.list .row', { hasText: /[1-9]\d*a / }).first().waitFor({ state: 'visible', timeout: 180_000 });
      before = await snapshot(panel);
      console.log(`  before: ${JSON.stringify([...before])}`);
    },
  },
  {
    name: 'Whole loop: @memory typed into the chat input answers in the model\'s own words',
    async run({ page, screenshot, profileDir }) {
      assert.ok(before, 'the note was remembered');
      await askInChat(page, QUESTION);
      const response = page.locator('.interactive-item-container.interactive-response').last();
      await response.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const answer = await waitForText(response, /Shelf keeps its reading lists in SQLite/, 120_000);
      console.log(`  @memory answered: ${answer.slice(0, 300).replace(/\s+/g, ' ')}`);
      await screenshot('whole-loop-chat-answer');
      // The extension scores the answer as it arrives (answerUsage.ts): its own words name the
      // note's SQLite and WAL, which the question did not, so the shown memory counts as used.
      // (The note was typed earlier in this chat with /remember; only the question this answer
      // responds to is the user's words, or no evidence could ever be found: it read "0 of 0".)
      const evidence = await waitForLogLine(profileDir, /answer evidence: \d+ of \d+ shown memories used in the answer's own words/, 60_000);
      assert.match(evidence, /answer evidence: [1-9]\d* of [1-9]\d* shown memories/, 'the answer in its own words used the shown note');
      console.log(`  ${evidence.trim()}`);
    },
  },
  {
    name: 'Whole loop: the user opens the memory the answer showed (an explicit action)',
    async run({ page, screenshot, profileDir }) {
      const response = page.locator('.interactive-item-container.interactive-response').last();
      // The answer's references: the memories @memory showed (agent-memory:/memory/<id>.md).
      // ("Used N references", a collapsed list; the workbench may wrap it in a "Completed N steps"
      // disclosure, also labelled .chat-used-context-label, so the label is found by its text.)
      const used = response.locator('.chat-used-context-label', { hasText: /Used \d+ references?/ }).last();
      await used.waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
      const refs = response.locator('.chat-used-context-list .monaco-list-row');
      // Unfold by state, as a person would, until a reference shows. Both folds can change after the
      // answer completes: the workbench may wrap its steps in a closed "Completed N steps"
      // disclosure (a <details>, also labelled .chat-used-context-label) at any moment, and the
      // references part (the label's parent) carries chat-used-context-collapsed while folded; each
      // toggles, so each is clicked only while seen closed. (Click events on the elements
      // themselves: the chat's sticky request header and the unfolded steps cover them.)
      const disclosure = response.locator('details.completed-response-disclosure');
      const part = used.locator('xpath=..');
      const until = Date.now() + UI_TIMEOUT_MS;
      while (!(await refs.first().isVisible()) && Date.now() < until) {
        if (await disclosure.count() && !(await disclosure.first().evaluate((d) => (d as unknown as { open: boolean }).open))) {
          await disclosure.first().locator('summary').first().dispatchEvent('click');
        } else if (/\bchat-used-context-collapsed\b/.test((await part.getAttribute('class')) ?? '')) {
          await used.locator('.monaco-button').first().dispatchEvent('click');
        }
        await page.waitForTimeout(500);
      }
      await refs.first().waitFor({ state: 'visible', timeout: 5_000 });
      const labels = await refs.allInnerTexts();
      console.log(`  references: ${labels.map((l) => l.replace(/\s+/g, ' ')).join(' | ')}`);
      // Open each memory reference until the one holding the note shows in an editor.
      let opened = false;
      for (let i = 0; i < labels.length && !opened; i++) {
        if (!/\.md/.test(labels[i] ?? '')) continue;
        await refs.nth(i).click();
        const editor = page.locator('.editor-instance .view-lines').first();
        await editor.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
        opened = /SQLite in WAL mode/.test(await waitForText(editor, /\S/).catch(() => ''));
      }
      assert.ok(opened, 'a memory reference of the answer opened the note in an editor');
      await screenshot('whole-loop-opened-memory');
      // The extension applied the "opened" action to the answer's session at once (sessionService.userFeedback).
      openedLine = await waitForLogLine(profileDir, /user feedback 'opened' on 1 memories: [1-9]\d* session rows/, 60_000);
      console.log(`  ${openedLine.trim()}`);
    },
  },
  {
    name: 'Whole loop: the session ends and the panel shows its feedback, aspect weights and health',
    async run({ screenshot, webview, profileDir, fakeModelScript }) {
      assert.ok(before && openedLine, 'the chat steps ran');
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-overview').click();
      const overview = panel.locator('#panel-overview');
      // The session end (one idle minute; the sweep runs every 15 s) scores the answer's evidence
      // (the note's names in the model's own words, and the opened reference) for the predictor
      // comparison. The aspect weights were already raised by the "opened" action (aspects +2 in
      // its log line); the end adds none for a memory already credited (feedbackAspectsUpdated=0).
      const ended = await waitForLogLine(profileDir, /session end \S+: feedbackAspectsUpdated=/, SESSION_END_TIMEOUT_MS, openedLine);
      console.log(`  ${ended.trim()}`);
      await waitForText(overview, /Aspects updated\s+[1-9]/);
      await screenshot('whole-loop-overview');
      const after = await snapshot(panel);
      console.log(`  after: ${JSON.stringify([...after])}`);
      const weightChanges = [...after].filter(([name, s]) => Object.entries(s.weights).some(([aspect, w]) => before?.get(name)?.weights[aspect] !== undefined && before.get(name)?.weights[aspect] !== w));
      assert.ok(weightChanges.length > 0, 'an aspect weight changed');
      // Health is read, not asserted: run alone, one session's predictor comparison does not give an
      // entity a health label yet ("No health data yet" before and after, 2026-12-02); in the full run
      // panelPredictorHealth.e2e.ts has written health rows before.
      const healthChanges = [...after].filter(([name, s]) => before?.get(name)?.health !== s.health);
      console.log(`  changed weights: ${weightChanges.map(([n]) => n).join(', ')}; changed health: ${healthChanges.map(([n, s]) => `${n} (${before?.get(n)?.health} → ${s.health})`).join('; ')}`);
      await panel.locator('.list .row', { hasText: weightChanges[0]![0] }).first().click();
      await screenshot('whole-loop-weights');
      rmSync(fakeModelScript, { force: true });
    },
  },
];
