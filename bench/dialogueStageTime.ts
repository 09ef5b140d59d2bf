/**
 * Time of the stages after fusion in dialogue stores (the LoCoMo development conversations, where
 * the learned order runs in full), with the learned order on and off: docs/recall-design.md,
 * "Eighth round". bench/recall.ts measures latency on notes stores, where the stage stops after
 * one read; this is the figure for conversations.
 *
 *   AGENT_MEMORY_LOCOMO=../shared/datasets/locomo/locomo-dev.json node --require tsx/cjs bench/dialogueStageTime.ts [--rounds 3]
 *
 * Every question of every conversation is recalled `rounds` times with each setting, alternating;
 * the first round warms up and is not counted. Writes bench/results/dialogueStageTime.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BenchClock, benchSettings } from './benchEngine';
import { cachedLocomoStore, openLocomoBench, rankLocomoQuestion } from './locomo';

const ROUNDS = ((): number => { const i = process.argv.indexOf('--rounds'); return i >= 0 ? Math.max(2, Number(process.argv[i + 1]) || 3) : 3; })();

function quantile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

async function main(): Promise<void> {
  const loaded = openLocomoBench();
  if ('absent' in loaded) { console.log(loaded.absent); return; }
  const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
  try {
    for (const conv of loaded.conversations) {
      const clock = new BenchClock();
      const built = await cachedLocomoStore(conv, loaded.embedder, clock);
      for (let round = 0; round < ROUNDS; round++) {
        for (const enabled of [true, false]) {
          built.engine.updateSettings(benchSettings({ 'search.learnedOrderEnabled': enabled }));
          for (const q of conv.questions) {
            const out = await rankLocomoQuestion(built, clock, q.query);
            if (round > 0) times[enabled ? 'on' : 'off'].push(out.timings.stagesMs);
          }
        }
      }
      await built.engine.close();
    }
  } finally {
    await loaded.model.dispose();
  }
  const summary = (xs: readonly number[]): { p50: number; p95: number; recalls: number } => ({ p50: Number(quantile(xs, 0.5).toFixed(2)), p95: Number(quantile(xs, 0.95).toFixed(2)), recalls: xs.length });
  const result = { date: new Date().toISOString(), loadAverage: loadavg().map((x) => Number(x.toFixed(2))), rounds: ROUNDS, withLearnedOrder: summary(times.on), withoutLearnedOrder: summary(times.off) };
  console.log(`stages per recall in the dialogue stores: with the learned order p50 ${result.withLearnedOrder.p50} ms, p95 ${result.withLearnedOrder.p95} ms; without p50 ${result.withoutLearnedOrder.p50} ms, p95 ${result.withoutLearnedOrder.p95} ms (${result.withLearnedOrder.recalls} recalls each)`);
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'dialogueStageTime.json'), JSON.stringify(result, null, 2) + '\n');
}

if (require.main === module) main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
