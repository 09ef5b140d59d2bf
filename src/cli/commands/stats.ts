import { join } from 'node:path';
import { readdirSync, statSync } from 'node:fs';
import { countMemories } from '../../core/memory/memoryRecords';
import type { DurableMemoryStore } from '../../core/store/durableStore';
import type { SqlReader } from '../../core/store/storeTypes';
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

function count(db: SqlReader, table: string, where = ''): number {
  if (!db.hasTable(table)) return 0;
  return db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} ${where}`)?.n ?? 0;
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
    const jobs: Record<string, number> = {};
    if (db.hasTable('memory_jobs')) {
      for (const r of db.all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM memory_jobs GROUP BY status ORDER BY status')) jobs[r.status] = r.n;
    }
    return {
      memories: countMemories(db),
      deletedMemories: count(db, 'memories', 'WHERE is_deleted = 1'),
      entities: count(db, 'entities'),
      relations: count(db, 'relations'),
      embeddings: count(db, 'embeddings'),
      sessions: count(db, 'sessions'),
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
