/**
 * Knowledge panel data-source bench: an in-memory store with N entities (3 aspects,
 * 5 attributes and one relation each, some predictor comparisons); times the panel's reads:
 * first page, a deep page, a name search, an entity detail and the stats card. Prints p50/p95/max
 * in ms and writes bench/results/knowledgeSource.json.
 *
 *   npx tsx bench/knowledgeSource.ts [--entities 10000] [--runs 15]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../src/core/clock';
import { openMemoryStore } from '../src/core/store/memoryStore';
import { StoreKnowledgeSource } from '../src/extension/knowledge/storeKnowledgeSource';
import { PANEL_CONFIG } from '../webview/panelConfig';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('--entities', 10_000);
const RUNS = arg('--runs', 15);
const T = '2026-11-01T00:00:00.000Z';
const clock = new ManualClock(Date.parse('2026-11-29T12:00:00Z'));

function stats(xs: number[]): { p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => +(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0).toFixed(2);
  return { p50: q(0.5), p95: q(0.95), max: +(s[s.length - 1] ?? 0).toFixed(2) };
}

async function main(): Promise<void> {
  const store = await openMemoryStore({ clock });
  await store.write('bench-seed', (w) => {
    for (let i = 0; i < N; i++) {
      w.run('INSERT INTO entities (id, name, canonical_name, entity_type, mentions, pinned, pinned_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [`e${i}`, `Entity ${i}`, `entity ${i}`, ['tool', 'person', 'system', 'concept'][i % 4]!, i % 97, i % 500 === 0 ? 1 : 0, i % 500 === 0 ? T : null, T, T]);
      for (let a = 0; a < 3; a++) {
        w.run('INSERT INTO entity_aspects (id, entity_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [`a${i}_${a}`, `e${i}`, `aspect ${a}`, `aspect ${a}`, 0.1 + (i % 10) / 11, T, T]);
      }
      for (let t = 0; t < 5; t++) {
        w.run('INSERT INTO entity_attributes (id, entity_id, aspect_id, kind, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [`t${i}_${t}`, `e${i}`, `a${i}_${t % 3}`, t === 4 ? 'constraint' : 'attribute', `attribute ${t} of entity ${i}`, T, T]);
      }
      if (i > 0) w.run("INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, created_at, updated_at) VALUES (?, ?, ?, 'uses', ?, ?)", [`r${i}`, `e${i}`, `e${i - 1}`, T, T]);
      if (i % 50 === 0) {
        for (let c = 0; c < 4; c++) {
          w.run('INSERT INTO predictor_comparisons (id, session_key, predictor_won, margin, focal_entity_id, focal_entity_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
            [`c${i}_${c}`, `s${c}`, (i + c) % 2, 0.1, `e${i}`, `Entity ${i}`, `2026-11-2${c}T00:00:00.000Z`]);
        }
      }
    }
  });
  const source = new StoreKnowledgeSource({ store, clock });
  const page = PANEL_CONFIG.pageSize;
  const cases: Record<string, () => Promise<unknown>> = {
    firstPage: () => source.listEntities({ query: '', entityType: null, offset: 0, limit: page }),
    deepPage: () => source.listEntities({ query: '', entityType: null, offset: N - page, limit: page }),
    search: () => source.listEntities({ query: '99', entityType: null, offset: 0, limit: page }),
    typeFilter: () => source.listEntities({ query: '', entityType: 'system', offset: 0, limit: page }),
    detail: () => source.entityDetail(`e${Math.floor(N / 2)}`),
    stats: () => source.stats(),
  };
  const results: Record<string, ReturnType<typeof stats>> = {};
  for (const [name, fn] of Object.entries(cases)) {
    const xs: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t = performance.now();
      await fn();
      xs.push(performance.now() - t);
    }
    results[name] = stats(xs);
    console.log(`${name.padEnd(11)} p50 ${results[name].p50} ms  p95 ${results[name].p95} ms  max ${results[name].max} ms`);
  }
  source.dispose();
  await store.close();
  const out = join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'knowledgeSource.json'), JSON.stringify({ entities: N, aspects: N * 3, attributes: N * 5, pageSize: page, runs: RUNS, ms: results }, null, 2) + '\n');
}

main().catch((e: unknown) => { console.error(e instanceof Error ? e.message : String(e)); process.exitCode = 1; });
