import { join } from 'node:path';
import { readdirSync, statSync } from 'node:fs';
import { countMemories } from '../../core/memory/memoryRecords';
import type { DurableMemoryStore } from '../../core/store/durableStore';
import { countJobs } from '../../core/jobs/jobQueue';
import { storeRowCounts } from '../../core/store/storeCounts';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

export interface StoreStatsReport {
  readonly memories: number;
  readonly deletedMemories: number;
  readonly entities: number;
  readonly relations: number;
  readonly embeddings: number;
  readonly sessions: number;
  readonly jobs: Record<string, number>;
  readonly schemaVersion: number;
  readonly storeId: string;
  readonly storeDir: string;
  readonly storeBytes: number;
  readonly journalRecords: number;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const f of readdirSync(dir)) {
    try { total += statSync(join(dir, f)).size; } catch { /* removed meanwhile */ }
  }
  return total;
}

export function collectStats(store: DurableMemoryStore): StoreStatsReport {
  const s = store.stats();
  return store.read((db) => {
    // statuses present, in name order
    const jobs = Object.fromEntries(Object.entries(countJobs(db)).filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b)));
    return {
      memories: countMemories(db),
      ...storeRowCounts(db),
      jobs,
      schemaVersion: s.schemaVersion,
      storeId: store.storeId,
      storeDir: store.dir,
      storeBytes: folderBytes(store.dir),
      journalRecords: s.appliedSeq,
    };
  });
}

/** `agent-memory stats [--json]`: counts and store facts (cheap: no full scans beyond COUNT). */
export async function statsCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const report = await withCliStore(args, async (store) => collectStats(store), 'never');
  if (args.flags.json === true) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const jobs = Object.entries(report.jobs).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
    io.stdout(`memories ${report.memories} (deleted ${report.deletedMemories}), entities ${report.entities}, relations ${report.relations}, embeddings ${report.embeddings}, sessions ${report.sessions}\njobs: ${jobs}\nstore ${report.storeDir}: ${(report.storeBytes / 1024).toFixed(1)} KiB, schema ${report.schemaVersion}\n`);
  }
  return 0;
}
