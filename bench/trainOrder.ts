/**
 * Trains the learned order (src/core/recall/learnedOrder.ts) on the LoCoMo development
 * conversations and checks it leave one conversation out (docs/recall-design.md, "Seventh round").
 *
 * Every question is recalled through the engine's own pipeline (its settings, limit 10) with the
 * learned-order stage replaced by a tap that records, for the window it would reorder, each
 * memory's features (the stage's own `orderFeatures`), its place and whether it is gold evidence.
 * Each conversation is recalled with the query adapter fitted without it (bench/trainQueryAdapter.ts
 * folds, bench/queryAdapterFolds.ts), so the features come from vectors as a new conversation gets them.
 * A logistic regression over [−ln(1 + position), features] (standardised, L2) is fitted per fold on
 * four conversations and scored on the fifth by reordering its windows as the stage would; the weights
 * fitted on all five are written to src/core/recall/learnedOrderWeights.ts (with --write).
 *
 *   AGENT_MEMORY_LOCOMO=../shared/datasets/locomo/locomo-dev.json node --require tsx/cjs bench/trainOrder.ts [--write]
 *
 * Writes bench/results/trainOrder.json (per fold, the cross-validated figure, the weights).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { learnedPositions, loadOrderContext, ORDER_FEATURES, orderFeatures, windowVectors } from '../src/core/recall/learnedOrder';
import type { LearnedOrderWeights, OrderFeatures } from '../src/core/recall/learnedOrder';
import { RECALL_STAGES } from '../src/core/recall/recallStages';
import type { RecallStage } from '../src/core/recall/recallStages';
import { BenchClock, benchSettings } from './benchEngine';
import { cachedLocomoStore, openLocomoBench, rankLocomoQuestion } from './locomo';
import { loadQueryAdapterFolds } from './queryAdapterFolds';

const WRITE = process.argv.includes('--write');
const LIMIT = 10;
/** L2 strength (on standardised features) and gradient steps of the fit. */
const L2 = 1, STEPS = 600, RATE = 1;

/** One window as the stage sees it; the stage reorders only a dialogue's (learnedOrder.ts, isDialogue). */
interface Window { conv: string; gold: readonly string[]; dialogue: boolean; rows: { sources: readonly string[]; x: OrderFeatures }[] }

const COLUMNS = ['position', ...ORDER_FEATURES] as const;
const vectorOf = (r: Window['rows'][number], position: number): number[] => [-Math.log(1 + position), ...ORDER_FEATURES.map((f) => r.x[f])];

/** Logistic regression on standardised columns; returns raw-scale weights per column (no intercept: ordering only). */
function fit(windows: readonly Window[]): LearnedOrderWeights {
  const X: number[][] = [], y: number[] = [];
  for (const w of windows) if (w.dialogue) w.rows.forEach((r, i) => { X.push(vectorOf(r, i)); y.push(r.sources.some((s) => w.gold.includes(s)) ? 1 : 0); });
  const d = COLUMNS.length;
  const mean = Array.from({ length: d }, (_, j) => X.reduce((s, row) => s + (row[j] as number), 0) / X.length);
  const sd = Array.from({ length: d }, (_, j) => Math.sqrt(X.reduce((s, row) => s + ((row[j] as number) - (mean[j] as number)) ** 2, 0) / X.length) || 1);
  const Z = X.map((row) => row.map((v, j) => (v - (mean[j] as number)) / (sd[j] as number)));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let step = 0; step < STEPS; step++) {
    const g = new Array<number>(d).fill(0);
    let gb = 0;
    Z.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-(b + z.reduce((s, v, j) => s + v * (w[j] as number), 0))));
      const e = p - (y[i] as number);
      gb += e;
      z.forEach((v, j) => { g[j] = (g[j] as number) + e * v; });
    });
    for (let j = 0; j < d; j++) w[j] = (w[j] as number) - RATE * ((g[j] as number) + L2 * (w[j] as number)) / Z.length;
    b -= RATE * gb / Z.length;
  }
  return Object.fromEntries(COLUMNS.map((c, j) => [c, Number(((w[j] as number) / (sd[j] as number)).toFixed(4))])) as unknown as LearnedOrderWeights;
}

/** R@10 of a window in the order the stage would give it (learnedPositions), or as it came. */
function recallAt10(w: Window, weights: LearnedOrderWeights | undefined): number {
  const order = weights && w.dialogue ? learnedPositions(w.rows.map((r) => r.x), weights) : w.rows.map((_, i) => i);
  const top = new Set(order.slice(0, LIMIT).flatMap((i) => (w.rows[i] as Window['rows'][number]).sources));
  return w.gold.filter((g) => top.has(g)).length / w.gold.length;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

async function main(): Promise<void> {
  const loaded = openLocomoBench();
  if ('absent' in loaded) { console.log(loaded.absent); return; }
  const { model, embedder } = loaded;
  const adapters = loadQueryAdapterFolds();
  if ('absent' in adapters) throw new Error(adapters.absent);
  const windows: Window[] = [];
  try {
    for (const conv of loaded.conversations) {
      const clock = new BenchClock();
      const built = await cachedLocomoStore(conv, embedder, clock);
      // Each conversation's windows with the query adapter fitted without it (cross-fitting): the
      // learned order then learns from vectors as good as those of a conversation never seen.
      const adapter = adapters.get(conv.id);
      if (!adapter) throw new Error(`bench/results/queryAdapter.json has no fold for ${conv.id} (run bench/trainQueryAdapter.ts)`);
      built.engine.updateSettings(benchSettings({ 'search.learnedOrderEnabled': false }, { vector: { adapter } }));
      let tapped: Pick<Window, 'dialogue' | 'rows'> = { dialogue: false, rows: [] };
      const tap: RecallStage = {
        id: 'learnedOrder', enabled: () => true,
        apply(cands, { store, req, gathered, authorsOf }) {
          const ctx = store.read((db) => loadOrderContext(db, cands, req.query, gathered.filter, windowVectors(gathered.vectors), authorsOf));
          const x = orderFeatures(cands, ctx);
          tapped = { dialogue: ctx.dialogue, rows: cands.map((c, i) => ({ sources: built.sourcesById.get(c.id) ?? [c.id], x: x[i] as OrderFeatures })) };
          return cands;
        },
      };
      const stages = RECALL_STAGES.map((s) => (s.id === 'learnedOrder' ? tap : s));
      for (const q of conv.questions) {
        await rankLocomoQuestion(built, clock, q.query, stages);
        windows.push({ conv: conv.id, gold: q.gold, ...tapped });
      }
      await built.engine.close();
    }
  } finally {
    await model.dispose();
  }
  const convs = [...new Set(windows.map((w) => w.conv))];
  const folds: Record<string, { weights: LearnedOrderWeights; heldOut: number; without: number; questions: number }> = {};
  const held: number[] = [], base: number[] = [];
  for (const c of convs) {
    const weights = fit(windows.filter((w) => w.conv !== c));
    const test = windows.filter((w) => w.conv === c);
    const h = test.map((w) => recallAt10(w, weights)), b0 = test.map((w) => recallAt10(w, undefined));
    held.push(...h); base.push(...b0);
    folds[c] = { weights, heldOut: mean(h), without: mean(b0), questions: test.length };
    console.log(`held out ${c.padEnd(8)} R@10 ${mean(h).toFixed(3)} (without ${mean(b0).toFixed(3)}, ${h.length} questions)`);
  }
  const weights = fit(windows);
  const tuned = mean(windows.map((w) => recallAt10(w, weights)));
  console.log(`windows that are dialogues (the stage reorders only those): ${windows.filter((w) => w.dialogue).length} of ${windows.length}`);
  console.log(`cross-validated R@10 ${mean(held).toFixed(3)}   without the stage ${mean(base).toFixed(3)}   fitted on all five ${tuned.toFixed(3)}`);
  console.log(`weights (raw scale): ${JSON.stringify(weights)}`);
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'trainOrder.json'), JSON.stringify({ date: new Date().toISOString(), limit: LIMIT, l2: L2, steps: STEPS, folds, crossValidated: mean(held), without: mean(base), tunedOnAll: tuned, weights }, null, 2) + '\n');
  if (WRITE) {
    const body = COLUMNS.map((c) => `${c}: ${weights[c]}`).join(', ');
    writeFileSync(join(__dirname, '..', 'src', 'core', 'recall', 'learnedOrderWeights.ts'), `/**
 * Written by bench/trainOrder.ts (do not edit by hand): the learned order's weights
 * (learnedOrder.ts), fitted on the LoCoMo development conversations (${windows.length} questions);
 * leave one conversation out they gave R@10 ${mean(held).toFixed(3)} against ${mean(base).toFixed(3)} without the stage, on the
 * stage's window (before currentness and the later stages; through the whole pipeline: docs/recall-design.md).
 */
import type { LearnedOrderWeights } from './learnedOrder';

export const LEARNED_ORDER_WEIGHTS: LearnedOrderWeights = {
  ${body},
};
`);
    console.log('wrote src/core/recall/learnedOrderWeights.ts');
  }
}

if (require.main === module) main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
