/**
 * Forget bench (docs/store.md, "Forget means gone"): what `forget` costs now that it purges the
 * store files. On a real folder with N memories (default 10,000, ~120-character notes) it times,
 * per forget: the hard delete alone (one journaled transaction) and the purge (journal rotation,
 * one export written as the newest snapshot and linked as the previous one, old journal
 * generations deleted; the first purge of a store also merges the FTS indexes once and turns their
 * secure-delete option on). Reports medians over the forgets after the first (timings on a shared
 * machine are noisy), the first one apart, and the snapshot size. Writes bench/results/forget.json.
 *
 *   node --require tsx/cjs bench/forget.ts [--memories 10000] [--forgets 5]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/core/clock';
import { forgetMemory } from '../src/core/memory/forget';
import { insertMemory } from '../src/core/memory/memoryRecords';
import { openStore } from '../src/core/store/openStore';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const MEMORIES = Number(argOf('memories', '10000'));
const FORGETS = Number(argOf('forgets', '11'));

let seed = 11;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const SYLL = ['ka', 'ro', 'mi', 'te', 'su', 'na', 'lo', 'pe', 'di', 'va', 'zu', 'xo', 'bre', 'sta'];
const word = (): string => { let w = ''; let n = 1 + Math.floor(Math.pow(rnd(), 2) * 5000); do { w += SYLL[n % SYLL.length]; n = Math.floor(n / SYLL.length); } while (n > 0); return w; };
const text = (i: number): string => `${Array.from({ length: 14 + Math.floor(rnd() * 10) }, word).join(' ')} #${i}`;
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] as number; };

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-memory-forget-bench-'));
  try {
    const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
    const ids: string[] = [];
    const at = new Date().toISOString();
    for (let i = 0; i < MEMORIES; i += 256) {
      const batch: Promise<{ id: string }>[] = [];
      for (let j = i; j < Math.min(MEMORIES, i + 256); j++) batch.push(store.write('remember', (w) => insertMemory(w, { content: text(j), createdAt: at })));
      for (const r of await Promise.all(batch)) ids.push(r.id);
    }
    await store.snapshot();
    const deleteMs: number[] = [];
    const purgeMs: number[] = [];
    let snapshotBytes = 0;
    for (let k = 0; k < FORGETS; k++) {
      const id = ids[Math.floor(rnd() * ids.length)] as string;
      ids.splice(ids.indexOf(id), 1);
      let t = performance.now();
      await forgetMemory(store, id, systemClock, 'bench');
      deleteMs.push(performance.now() - t);
      t = performance.now();
      const p = await store.purgeDeleted();
      purgeMs.push(performance.now() - t);
      snapshotBytes = p.snapshotBytes;
    }
    await store.close();
    const later = (xs: number[]): number[] => xs.slice(1);
    const totalMs = deleteMs.map((d, k) => d + (purgeMs[k] as number));
    const result = {
      memories: MEMORIES, forgets: FORGETS,
      // The whole forget (delete + purge), the delete and the purge: medians of the forgets after the first.
      forgetMsMedian: Number(median(later(totalMs)).toFixed(1)),
      deleteMsMedian: Number(median(later(deleteMs)).toFixed(1)),
      purgeMsMedian: Number(median(later(purgeMs)).toFixed(1)),
      // The first forget of a store also merges the FTS indexes once (docs/store.md, "Forget means gone").
      firstForgetMs: Number((totalMs[0] as number).toFixed(1)),
      purgeMs: purgeMs.map((x) => Number(x.toFixed(1))),
      snapshotBytes,
      loadAverage: loadavg().map((x) => Number(x.toFixed(1))),
      at: new Date().toISOString(),
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'forget.json'), JSON.stringify(result, null, 2) + '\n');
    console.log('wrote bench/results/forget.json');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
