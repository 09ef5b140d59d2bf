/**
 * The lexical arm alone, FTS5 against the in-memory index (src/core/recall/lexicalIndex.ts), on the
 * same store in one process, the two interleaved query by query (so load moves both alike): time
 * per query (p50/p95), whether the lexical channel differs (it must not), the index's first build
 * and its size. Both query sets of bench/recallCliPath.ts: today's (templated notes over a Zipf
 * vocabulary) and the common-term set (bench/commonTermWorkload.ts). Memories are written through
 * insertMemory (memories + FTS, no embeddings: the vector arm is not measured here). Writes
 * bench/results/lexicalIndex.json.
 *
 *   npx tsx bench/lexicalIndex.ts [--sizes 1000,10000,100000] [--queries 500]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEARCH_CONFIG } from '../src/core/config/searchConfig';
import { insertMemory } from '../src/core/memory/memoryRecords';
import { lexicalSearch } from '../src/core/recall/lexicalArm';
import { LexicalIndex } from '../src/core/recall/lexicalIndex';
import { queryTerms } from '../src/core/recall/queryTerms';
import { termStatsFor } from '../src/core/recall/termStats';
import { openStore } from '../src/core/store/openStore';
import { commonTermWorkload } from './commonTermWorkload';
import { note } from './recallCliPath';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const SIZES = argOf('sizes', '1000,10000,100000').split(',').map(Number);
const QUERIES = Number(argOf('queries', '500'));
const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);

interface Dist { p50: number; p95: number; max: number }
function dist(xs: readonly number[]): Dist {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => Math.round((s[Math.min(s.length - 1, Math.floor(p * s.length))] as number) * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), max: at(1) };
}

/** Query cut from a note, as bench/recallCliPath.ts asks today's set. */
function todayQuery(contents: readonly string[], i: number): string {
  const words = (contents[(i * 7919) % contents.length] as string).replace(/[.;()]/g, '').split(' ').filter((w) => w.length > 2);
  const k = 2 + (i % 4);
  const start = (i * 31) % Math.max(1, words.length - k);
  const q = words.slice(start, start + k).join(' ');
  return i % 3 === 0 ? `what about ${q}?` : q;
}

async function measure(n: number, workload: 'today' | 'commonTerm'): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'am-lexical-'));
  const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
  try {
    const common = commonTermWorkload();
    const contents = Array.from({ length: n }, (_, i) => (workload === 'today' ? note(i) : common.note(i)));
    for (let i = 0; i < n; i += 5000) {
      await store.write('bench-fill', (w) => {
        for (let k = i; k < Math.min(n, i + 5000); k++) insertMemory(w, { content: contents[k] as string, createdAt: new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString() });
      });
    }
    const cfg = DEFAULT_SEARCH_CONFIG;
    const stats = termStatsFor(store);
    const index = new LexicalIndex();
    const loadBefore = load();
    const b0 = performance.now();
    store.read((db) => index.sync(db));
    const buildMs = Math.round(performance.now() - b0);
    const heap = process.memoryUsage();
    const fts: number[] = [], indexed: number[] = [];
    // CPU time of the process (only the main thread works in the arm): what the arm costs, which a
    // shared machine's load moves much less than wall time.
    const ftsCpu: number[] = [], indexedCpu: number[] = [];
    let differing = 0, answeredByIndex = 0;
    for (let i = 0; i < QUERIES; i++) {
      const terms = queryTerms(workload === 'today' ? todayQuery(contents, i) : common.query(i), cfg.lexical.maxTerms);
      store.read((db) => {
        const order = i % 2 === 0;
        const run = (withIndex: boolean): Map<string, unknown> => {
          const t0 = performance.now();
          const c0 = process.cpuUsage();
          const out = lexicalSearch(db, terms, {}, cfg, stats, withIndex ? index : undefined);
          const c1 = process.cpuUsage(c0);
          (withIndex ? indexed : fts).push(performance.now() - t0);
          (withIndex ? indexedCpu : ftsCpu).push((c1.user + c1.system) / 1000);
          return out;
        };
        const a = run(order), b = run(!order);
        if (JSON.stringify([...a]) !== JSON.stringify([...b])) differing++;
      });
      if (terms.every((t) => /^[a-z]+$|^[0-9]+$/.test(t))) answeredByIndex++;
    }
    const out = {
      memories: n, queries: QUERIES, fts5: dist(fts), index: dist(indexed), fts5Cpu: dist(ftsCpu), indexCpu: dist(indexedCpu),
      cpuP95Ratio: Math.round(dist(ftsCpu).p95 / Math.max(0.01, dist(indexedCpu).p95) * 10) / 10,
      queriesWithADifferentLexicalChannel: differing, queriesAnsweredByTheIndex: answeredByIndex,
      indexBuildMs: buildMs, indexFootprint: index.footprint(), heapUsedMb: Math.round(heap.heapUsed / 1e6), arrayBuffersMb: Math.round(heap.arrayBuffers / 1e6),
      loadAverage: [loadBefore, load()],
    };
    console.log(`${String(n).padStart(6)} ${workload.padEnd(10)} wall FTS5 ${out.fts5.p50}/${out.fts5.p95} ms, index ${out.index.p50}/${out.index.p95} ms | CPU FTS5 ${out.fts5Cpu.p50}/${out.fts5Cpu.p95} ms, index ${out.indexCpu.p50}/${out.indexCpu.p95} ms (p50/p95) | differing ${differing}/${QUERIES} | build ${buildMs} ms, ${(out.indexFootprint.bytes / 1e6).toFixed(1)} MB arrays, ${out.indexFootprint.terms} terms | load ${loadBefore.join(' ')}`);
    return out;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const file = join(__dirname, 'results', 'lexicalIndex.json');
  let earlier: Record<string, unknown> = {};
  try { earlier = (JSON.parse(readFileSync(file, 'utf8')) as { runs?: Record<string, unknown> }).runs ?? {}; } catch { earlier = {}; }
  const runs: Record<string, unknown> = { ...earlier };
  for (const n of SIZES) for (const w of ['today', 'commonTerm'] as const) runs[`${n} ${w}`] = await measure(n, w);
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), node: process.version, note: 'in-process, lexical arm only, FTS5 and index interleaved per query on one store; sizes run separately keep earlier entries', runs }, null, 2) + '\n');
  console.log('wrote bench/results/lexicalIndex.json');
}

void main();
