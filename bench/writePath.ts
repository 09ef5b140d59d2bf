/**
 * Write path bench, in process on the in-memory store:
 *  - heuristic extraction latency per note (p50/p95);
 *  - remember() latency (redaction + dedup + insert + job enqueue) with N memories already stored;
 *  - extraction job throughput (extract → graph apply) draining N queued jobs;
 *  - findDuplicatesAndConflicts over the 200-memory window (512-d vectors) incl. k-means;
 *  - worst-case redaction time per rule on 200k-character adversarial inputs (backtracking check).
 * Writes bench/results/writePath.json.
 *
 *   node --require tsx/cjs bench/writePath.ts [--n 2000]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../src/core/clock';
import { DEFAULT_CONTRADICTION_CONFIG, DEFAULT_EXTRACTION_CONFIG } from '../src/core/config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../src/core/config/graphConfig';
import { resolveJobsConfig } from '../src/core/config/jobsConfig';
import { seededRng } from '../src/core/consolidation/cluster';
import { findDuplicatesAndConflicts } from '../src/core/consolidation/duplicatesAndConflicts';
import { heuristicExtract } from '../src/core/extraction/heuristicExtractor';
import { createHeuristicExtractor } from '../src/core/extraction/llmExtractor';
import { storeEmbedding } from '../src/core/jobs/embedHandler';
import { createExtractHandler } from '../src/core/jobs/extractHandler';
import { JobWorker } from '../src/core/jobs/jobWorker';
import { silentLogger } from '../src/core/logger';
import { DEFAULT_REDACTION_CONFIG } from '../src/core/config/redactionConfig';
import { redactSecrets } from '../src/core/memory/redaction';
import { defaultRememberDeps, remember } from '../src/core/memory/remember';
import { openMemoryStore } from '../src/core/store/memoryStore';

const args = process.argv.slice(2);
const N = Number(args[args.indexOf('--n') + 1] ?? 2000) || 2000;

const SUBJECTS = ['The API', 'The indexer', 'The CLI', 'The webview', 'The billing service', 'The auth module', 'The sync worker', 'The Knowledge panel'];
const TECH = ['PostgreSQL', 'MongoDB', 'Redis', 'SQLite', 'Kafka', 'React', 'TypeScript', 'Docker', 'esbuild', 'Vitest', 'pnpm', 'GraphQL'];
const FILES = ['src/core/store/openStore.ts', 'src/cli/run.ts', 'package.json', 'webview/knowledge.ts', 'scripts/build.mjs'];
let seed = 11;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
function note(i: number): string {
  const s = pick(SUBJECTS);
  const forms = [
    () => `${s} uses ${pick(TECH)} for storage.`,
    () => `We migrated ${s.toLowerCase()} to ${pick(TECH)} last week.`,
    () => `We prefer ${pick(TECH)} over ${pick(TECH)} for new code.`,
    () => `${s} must never log request bodies; see ${pick(FILES)}.`,
    () => `We decided to use ${pick(TECH)} in ${pick(FILES)} because the build got slow.`,
    () => `${s} depends on ${pick(TECH)} and ${pick(TECH)}. Call \`openMemoryStore\` before parseArgs().`,
  ];
  return `${pick(forms)()} Note ${i}.`;
}

const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number; };
const r3 = (n: number): number => Number(n.toFixed(3));

async function main(): Promise<void> {
  const notes = Array.from({ length: N }, (_, i) => note(i));

  const ex: number[] = [];
  for (const t of notes) { const t0 = performance.now(); heuristicExtract(t, DEFAULT_EXTRACTION_CONFIG); ex.push(performance.now() - t0); }

  const clock = new ManualClock();
  const store = await openMemoryStore({ clock });
  const deps = { ...defaultRememberDeps(clock), enqueue: { embed: false, extract: true, hints: false } };
  const rem: number[] = [];
  for (const t of notes) { clock.advance(1000); const t0 = performance.now(); await remember(store, { content: t }, deps); rem.push(performance.now() - t0); }

  const worker = new JobWorker({ store, clock, logger: silentLogger, config: resolveJobsConfig({ concurrency: 2 }),
    handlers: [createExtractHandler(createHeuristicExtractor(DEFAULT_EXTRACTION_CONFIG), { graph: DEFAULT_GRAPH_CONFIG, contradiction: DEFAULT_CONTRADICTION_CONFIG })] });
  const d0 = performance.now();
  const stats = await worker.drain();
  const drainMs = performance.now() - d0;
  const graph = store.read((db) => ({
    entities: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entities')?.n ?? 0,
    relations: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM relations')?.n ?? 0,
    attributes: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entity_attributes')?.n ?? 0,
    superseded: db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entity_attributes WHERE status = 'superseded'")?.n ?? 0,
    graphOps: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM graph_ops')?.n ?? 0,
  }));

  const ids = store.read((db) => db.all<{ id: string }>('SELECT id FROM memories ORDER BY created_at DESC LIMIT 200')).map((r) => r.id);
  const vrng = seededRng(5);
  await store.write('bench', (db) => { for (const id of ids) { const v = new Float32Array(512).map(() => vrng() - 0.5); storeEmbedding(db, id, 'bench', v, '2026-01-01T00:00:00.000Z'); } });
  const s0 = performance.now();
  const scan = await findDuplicatesAndConflicts({ store, modelId: 'bench', dims: 512, llm: undefined, graph: DEFAULT_GRAPH_CONFIG, contradiction: DEFAULT_CONTRADICTION_CONFIG, logger: silentLogger, rng: seededRng(1) });
  const scanMs = performance.now() - s0;

  const adversarial = ['a.'.repeat(100_000), 'a'.repeat(200_000), 'a/'.repeat(100_000), 'sk-'.repeat(60_000), 'x://a:'.repeat(30_000),
    'password '.repeat(20_000), '-----BEGIN RSA PRIVATE KEY-----'.repeat(5_000), 'a_'.repeat(100_000), 'Bearer '.repeat(30_000)];
  const redactionWorstMs: Record<string, number> = {};
  for (const rule of DEFAULT_REDACTION_CONFIG.rules) {
    let worst = 0;
    for (const v of adversarial) { const t0 = performance.now(); redactSecrets(v, { enabled: true, rules: [rule] }); worst = Math.max(worst, performance.now() - t0); }
    redactionWorstMs[rule.name] = r3(worst);
  }

  const result = {
    when: new Date().toISOString(),
    node: process.version,
    memories: N,
    heuristicExtractMs: { p50: r3(pct(ex, 50)), p95: r3(pct(ex, 95)) },
    rememberMs: { p50: r3(pct(rem, 50)), p95: r3(pct(rem, 95)), note: 'in-memory store, extract job enqueued, no embed' },
    extractDrain: { jobs: stats.completed, ms: Math.round(drainMs), perJobMs: r3(drainMs / Math.max(1, stats.completed)), ...graph },
    redactionWorstMs,
    duplicatesAndConflicts: { scanned: scan.scanned, clusters: scan.clusters.length, merges: scan.merges.length, conflicts: scan.conflicts.length, ms: Math.round(scanMs) },
  };
  console.log(JSON.stringify(result, null, 2));
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'writePath.json'), JSON.stringify(result, null, 2) + '\n');
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
