import { strict as assert } from 'node:assert';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/core/store/openStore';
import { COMPARISON_METRIC } from '../../src/core/predictor/sessionComparison';
import type { E2eTest } from './e2eTypes';
import { UI_TIMEOUT_MS, expandView, openMemoryContainer, plainText } from './workbench';

const EXTENSION_ID = 'agent-memory.agent-memory';
const AGENT_ID = 'default';
/** Where the extension keeps its store when agentMemory.store.path is empty (src/extension/host/storeDir.ts). */
const STORE_SUBPATH = join('User', 'globalStorage', EXTENSION_ID, 'store');

/**
 * Predictor outcomes per entity, oldest first (W = the learned ranker beat the baseline). With the
 * trend split at the middle (entityHealthCalc.trendOf) and the panel thresholds (win rate >= 0.65
 * good, < 0.4 bad): every pattern has a 50 % win rate, so the colour comes from the trend alone.
 */
const PATTERNS = [
  { outcomes: 'LLLLLWWWWW', level: 'good', label: /^Health: improving, win rate 50% over 10 comparisons$/, reason: 'green: improving' },
  { outcomes: 'WLWLWWLWLW', level: 'stable', label: /^Health: stable, win rate 60% over 10 comparisons$/, reason: 'yellow: stable' },
  { outcomes: 'WWWWWLLLLL', level: 'bad', label: /^Health: declining, win rate 50% over 10 comparisons$/, reason: 'red: declining' },
] as const;

/** The extension's default store folder inside the throwaway code-server profile. */
function storeDirOf(profileDir: string): string {
  const direct = join(profileDir, 'user-data', STORE_SUBPATH);
  if (existsSync(direct)) return direct;
  const found = readdirSync(profileDir, { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith(STORE_SUBPATH));
  assert.ok(found, `no extension store under ${profileDir}`);
  return join(profileDir, found);
}

interface SeededEntity { readonly id: string; readonly name: string }

/**
 * Writes predictor_comparisons rows for three entities the extraction job made (earlier tests
 * remembered a note) through the durable store's own write transaction, from this process: the
 * extension host sees them as another process's writes. Returns [improving, stable, declining,
 * without data]. The rows have the per-entity shape runPredictorComparison writes at session end.
 */
async function seedComparisons(storeDir: string): Promise<SeededEntity[]> {
  const store = await openStore({ dir: storeDir });
  try {
    return await store.write('e2e: seed predictor comparisons', (db) => {
      const entities = db.all<SeededEntity>(
        // Entities the list shows: pinned, or with an aspect or a relation (knowledgeQueries.ts, BARE_EXCLUDED).
        `SELECT e.id, e.name FROM entities e WHERE e.agent_id = ? AND e.status = 'active'
         AND (e.pinned = 1 OR EXISTS (SELECT 1 FROM entity_aspects a WHERE a.entity_id = e.id)
           OR EXISTS (SELECT 1 FROM relations r WHERE r.source_entity_id = e.id OR r.target_entity_id = e.id))
         AND NOT EXISTS (SELECT 1 FROM predictor_comparisons p WHERE p.focal_entity_id = e.id) ORDER BY e.name LIMIT 4`, [AGENT_ID]);
      assert.equal(entities.length, 4, `need 4 extracted entities without predictor data, found ${entities.length}`);
      const start = Date.now() - 60 * 60_000;
      PATTERNS.forEach((pattern, e) => {
        const entity = entities[e]!;
        [...pattern.outcomes].forEach((outcome, i) => {
          const won = outcome === 'W';
          const predictor = won ? 1 : 0.5;
          const baseline = won ? 0.5 : 1;
          db.run(`INSERT INTO predictor_comparisons (id, session_key, agent_id, predictor_ndcg, baseline_ndcg, predictor_won, margin, focal_entity_id, focal_entity_name,
                    project, candidate_count, scorer_confidence, predictor_top_ids, baseline_top_ids, relevance_scores, fts_overlap_score, metric, created_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 2, 1, '[]', '[]', '{}', NULL, ?, ?)`,
          [`e2e-health-${e}-${i}`, `e2e-health-session-${i}`, AGENT_ID, predictor, baseline, won ? 1 : 0, predictor - baseline, entity.id, entity.name,
            COMPARISON_METRIC, new Date(start + (e * 10 + i) * 60_000).toISOString()]);
        });
      });
      return entities;
    });
  } finally {
    await store.close();
  }
}

/**
 * Health dots: entities with predictor comparisons show green (improving),
 * yellow (stable) or red (declining); an entity without data shows none. Sorts after
 * panelPinAndRecall.e2e.ts, whose remembered note supplies the entities.
 */
export const tests: E2eTest[] = [
  {
    name: 'Knowledge panel: health dots show green improving, yellow stable, red declining, none without data',
    async run({ page, screenshot, webview, profileDir }) {
      const entities = await seedComparisons(storeDirOf(profileDir));
      await openMemoryContainer(page);
      await expandView(page, 'Knowledge');
      const panel = webview(EXTENSION_ID);
      await panel.locator('#tab-entities').click();
      const rowOf = (name: string) => panel.locator('.list .row').filter({ has: panel.locator('.name', { hasText: name }) }).first();
      for (const [i, pattern] of PATTERNS.entries()) {
        const entity = entities[i]!;
        const dot = rowOf(entity.name).locator(`.dot.health-${pattern.level}`);
        // The extension applies the external write and the panel re-reads: poll for the dot.
        await dot.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
        assert.equal((await dot.getAttribute('title')) ?? '', `${pattern.label.source.slice(1, -1)} (${pattern.reason})`, `${entity.name} dot title says why`);
        assert.match((await rowOf(entity.name).getAttribute('aria-label')) ?? '', new RegExp(pattern.label.source.slice(1)), `${entity.name} row label`);
      }
      const without = rowOf(entities[3]!.name);
      await without.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      assert.equal(await without.locator('.dot.health-none').count(), 1, `${entities[3]!.name} has no health dot`);
      assert.equal(await without.locator('.dot.health-good, .dot.health-stable, .dot.health-bad').count(), 0);
      assert.match((await without.getAttribute('aria-label')) ?? '', /No health data yet$/);
      const colourOf = (dot: ReturnType<typeof rowOf>) => dot.evaluate((el) => (el.ownerDocument.defaultView as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
      const colours = await Promise.all(PATTERNS.map((_, i) => colourOf(rowOf(entities[i]!.name).locator('.dot'))));
      assert.equal(new Set(colours).size, 3, `three distinct dot colours: ${colours.join(', ')}`);
      const noneColour = await colourOf(without.locator('.dot'));
      assert.match(noneColour, /rgba\(0, 0, 0, 0\)|transparent/, 'the no-data dot is transparent');
      await rowOf(entities[0]!.name).click();
      await panel.locator('.detail h2').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      assert.match(await plainText(panel.locator('.detail h2')), new RegExp(entities[0]!.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      await screenshot('knowledge-panel-health');
    },
  },
];
