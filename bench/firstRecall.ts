/**
 * The extension's first recall after window start, on the engine path the window runs
 * (src/extension/host/services.ts): `MemoryEngine.open` in 'background' mode with the default
 * settings and the bundled model, then the first recall (tracked, explain off), then a few more.
 * Each run is a fresh node process (`--child`), so the model load, the store open (snapshot read and
 * journal replay) and the vector index load are all counted, as in a new window; VS Code's own
 * start-up and the extension's activation before the engine opens are not. Works on a copy of the
 * store, so the original is never written. Writes bench/results/firstRecall.json.
 *
 *   npx tsx bench/firstRecall.ts --store DIR [--runs 3]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/core/clock';
import { defaultEngineSettings } from '../src/core/engine/engineConfig';
import { MemoryEngine } from '../src/core/engine/memoryEngine';
import { noProgress } from '../src/core/hostContext';
import { createStreamLogger } from '../src/core/logger';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };

/** One window start: open, first recall, then five more; prints one JSON line. */
async function child(dir: string): Promise<void> {
  const t0 = performance.now();
  const host = { paths: { storeDir: dir, bundledModelsDir: join(__dirname, '..', 'models'), cacheDir: join(dir, '..', 'cache') }, logger: createStreamLogger('error'), clock: systemClock, llm: undefined, progress: noProgress };
  const engine = await MemoryEngine.open(host, defaultEngineSettings((k) => (k === 'store.path' ? dir : undefined)), { mode: 'background', leaseLabel: 'window' });
  const openMs = performance.now() - t0;
  // The window warms the model and the vector index right after open (services.ts); --no-warm
  // measures the first recall as it was before that (everything loaded while the user waits).
  const w0 = performance.now();
  if (!args.includes('--no-warm')) await engine.warm();
  const warmMs = performance.now() - w0;
  const r0 = performance.now();
  const first = await engine.recallDetailed({ query: 'which database does the billing service use', limit: 10 }, { explain: false });
  const firstMs = performance.now() - r0;
  const next: number[] = [];
  for (const q of ['deploy window for payments', 'redis cache latency', 'who prefers postgres', 'nightly job storage', 'kafka topics']) {
    const s = performance.now();
    await engine.recallDetailed({ query: q, limit: 10 }, { explain: false });
    next.push(Math.round((performance.now() - s) * 10) / 10);
  }
  await engine.close();
  console.log(JSON.stringify({ openMs: Math.round(openMs), warmMs: Math.round(warmMs), firstRecallMs: Math.round(firstMs), firstRecallEmbedMs: Math.round(first.timings.embedMs), firstRecallVectorMs: Math.round(first.timings.vectorMs), results: first.items.length, nextRecallsMs: next }));
}

function main(): void {
  const store = argOf('store', '');
  if (!store) throw new Error('--store DIR is required (a filled store, e.g. one kept by bench/recall.ts --cli --reuse)');
  const runs = Number(argOf('runs', '3'));
  const out: unknown[] = [];
  for (let i = 0; i < runs; i++) {
    const root = mkdtempSync(join(tmpdir(), 'am-first-recall-'));
    try {
      cpSync(store, join(root, 'store'), { recursive: true });
      const load = loadavg();
      const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', __filename, '--child', join(root, 'store'), ...(args.includes('--no-warm') ? ['--no-warm'] : [])], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`first-recall run failed: ${r.stderr}`);
      const run = { ...(JSON.parse(r.stdout.trim().split('\n').pop() as string) as object), loadAverage: load.map((x) => Math.round(x * 100) / 100) };
      console.log(JSON.stringify(run));
      out.push(run);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'firstRecall.json'), JSON.stringify({ date: new Date().toISOString(), node: process.version, path: `MemoryEngine.open (mode 'background', as the window) → ${args.includes('--no-warm') ? '' : 'warm() → '}first recall, fresh process per run, on a copy of the store`, runs: out }, null, 2) + '\n');
  console.log('wrote bench/results/firstRecall.json');
}

if (args[0] === '--child') child(args[1] as string).then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });
else main();
