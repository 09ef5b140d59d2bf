import { countDeletedMemories } from '../memory/memoryRecords';
import type { SqlReader } from './storeTypes';

/** Row counts the CLI's `stats` reports (COUNT only, no scans beyond them). */
export interface StoreRowCounts {
  readonly deletedMemories: number;
  readonly entities: number;
  readonly relations: number;
  readonly embeddings: number;
  readonly sessions: number;
}

export function storeRowCounts(db: SqlReader): StoreRowCounts {
  const n = (sql: string): number => db.get<{ n: number }>(sql)?.n ?? 0;
  return {
    deletedMemories: countDeletedMemories(db),
    entities: n('SELECT COUNT(*) AS n FROM entities'),
    relations: n('SELECT COUNT(*) AS n FROM relations'),
    embeddings: n('SELECT COUNT(*) AS n FROM embeddings'),
    sessions: n('SELECT COUNT(*) AS n FROM sessions'),
  };
}
