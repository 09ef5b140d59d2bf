import { strict as assert } from 'node:assert';
import type { FrameLocator } from 'playwright-core';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, askInChat, expandView, openMemoryContainer, plainText, waitForText, waitForWorkbench } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
const QUESTION = '@memory which database does the shelf service use?';
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

let before: Map<string, EntitySnapshot> | undefined;

/**
 * The whole loop through the real chat UI: a question typed into the chat input reaches @memory
 * (the fake language model is the workbench's chat model, so no sign-in or setup dialog), the
 * answer shows, the user marks it Helpful (👍), the conversation's session ends (one idle minute),
 * and the Knowledge panel shows what the 👍 and the session end did — feedback counters, aspect
 * weights and entity health — nothing written from the test. Runs last: it uses the note remembered by
 * panelPinAndRecall.e2e.ts and the health rows of panelPredictorHealth.e2e.ts.
 */
export const tests: E2eTest[] = [
  {
    name: 'Whole loop: @memory typed into the chat input answers from memory',
    async run({ page, screenshot, webview }) {
      await waitForWorkbench(page);
      // Run alone (the first spec of its workbench), the extension's container appears only once the
      // extension host has scanned the extensions, which takes more than UI_TIMEOUT_MS on a busy machine.
      await page.locator('.activitybar a[aria-label^="Memory"]').first().waitFor({ state: 'attached', timeout: 150_000 });
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge');
      const panel = webview(EXTENSION_ID);
      before = await snapshot(panel);
      console.log(`  before: ${JSON.stringify([...before])}`);
      await askInChat(page, QUESTION);
      const response = page.locator('.interactive-item-container.interactive-response').last();
      await response.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      // The recalled memory itself (cited by @memory), whatever the model composes around it.
      const answer = await waitForText(response, /SQLite in WAL mode/, 60_000);
      console.log(`  @memory answered: ${answer.slice(0, 300).replace(/\s+/g, ' ')}`);
      await screenshot('whole-loop-chat-answer');
      // The fake model echoes the prompt: every memory it "cites" is a quote, which is no evidence of
      // use (answerUsage.ts). The user's 👍 is: it reaches @memory through onDidReceiveFeedback.
      await response.hover();
      const helpful = response.locator('.action-label[aria-label^="Helpful"]').first();
      await helpful.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await helpful.click();
      await response.locator('.action-label.checked[aria-label^="Helpful"], .action-item.checked .action-label[aria-label^="Helpful"]').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS }).catch(() => undefined);
      await screenshot('whole-loop-chat-helpful');
    },
  },
  {
    name: 'Whole loop: the session ends and the panel shows its feedback, aspect weights and health',
    async run({ screenshot, webview }) {
      assert.ok(before, 'the chat step ran');
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-overview').click();
      const overview = panel.locator('#panel-overview');
      // The 👍 raised the cited memories' aspects at once; the session end (one idle minute) adds
      // the predictor comparison that entity health reads. No keyword hit counts any more, and the
      // echoed answer only quotes, so FTS confirmations may stay 0.
      await waitForText(overview, /Aspects updated\s+[1-9]/, SESSION_END_TIMEOUT_MS);
      await screenshot('whole-loop-overview');
      const after = await snapshot(panel);
      console.log(`  after: ${JSON.stringify([...after])}`);
      const weightChanges = [...after].filter(([name, s]) => Object.entries(s.weights).some(([aspect, w]) => before?.get(name)?.weights[aspect] !== undefined && before.get(name)?.weights[aspect] !== w));
      assert.ok(weightChanges.length > 0, 'an aspect weight changed');
      const healthChanges = [...after].filter(([name, s]) => before?.get(name)?.health !== s.health);
      assert.ok(healthChanges.length > 0, 'an entity health changed');
      console.log(`  changed weights: ${weightChanges.map(([n]) => n).join(', ')}; changed health: ${healthChanges.map(([n, s]) => `${n} (${before?.get(n)?.health} → ${s.health})`).join('; ')}`);
      await panel.locator('.list .row', { hasText: weightChanges[0]![0] }).first().click();
      await screenshot('whole-loop-weights');
    },
  },
];
