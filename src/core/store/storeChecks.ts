import type { SqlReader, SqlWriter } from './storeTypes';

/**
 * Store-level maintenance: rebuilding the FTS5 indexes from their content tables
 * and a read-only integrity check. Both go through the normal read/write paths, so a rebuild is an
 * ordinary journaled transaction that other processes replay.
 */

/** The external-content FTS5 indexes and the tables they index. */
export const FTS_INDEXES: readonly { readonly index: string; readonly content: string }[] = [
  { index: 'memories_fts', content: 'memories' },
  { index: 'memory_hints_fts', content: 'memory_hints' },
  { index: 'entities_fts', content: 'entities' },
];

/**
 * The FTS indexes whose document count (the `_docsize` shadow table) differs from their content
 * table's row count: a cheap drift signal that does not scan the index.
 */
export function driftedFtsIndexes(db: SqlReader): string[] {
  const drifted: string[] = [];
  for (const { index, content } of FTS_INDEXES) {
    const indexed = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${index}_docsize`)?.n ?? 0;
    const rows = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${content}`)?.n ?? 0;
    if (indexed !== rows) drifted.push(index);
  }
  return drifted;
}

/** Rebuilds the named FTS indexes (all by default) from their content tables. */
export function rebuildFtsIndexes(db: SqlWriter, only?: readonly string[]): string[] {
  const rebuilt: string[] = [];
  for (const { index } of FTS_INDEXES) {
    if (only && !only.includes(index)) continue;
    db.run(`INSERT INTO ${index}(${index}) VALUES ('rebuild')`);
    rebuilt.push(index);
  }
  return rebuilt;
}

export interface IntegrityReport {
  /** True when SQLite's own check (pages, indexes, FTS5 tables) and the foreign keys are clean and no orphans were found. */
  readonly ok: boolean;
  /** Lines of `PRAGMA integrity_check` other than "ok" (capped). */
  readonly sqliteProblems: readonly string[];
  readonly foreignKeyViolations: number;
  /** Rows that point at a memory that no longer exists, per table. */
  readonly orphans: Readonly<Record<string, number>>;
}

/** Tables whose memory_id must name an existing memory (NULL allowed). */
const MEMORY_LINKS: readonly string[] = ['memory_entity_mentions', 'entity_attributes', 'session_memories', 'memory_hints', 'memory_jobs'];

export function checkIntegrity(db: SqlReader, maxProblems = 20): IntegrityReport {
  const sqliteProblems = db.all<{ integrity_check: string }>(`PRAGMA integrity_check(${Math.max(1, Math.floor(maxProblems))})`)
    .map((r) => String(r.integrity_check))
    .filter((line) => line !== 'ok');
  const foreignKeyViolations = db.all('PRAGMA foreign_key_check').length;
  const orphans: Record<string, number> = {};
  for (const table of MEMORY_LINKS) {
    const row = db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${table} t WHERE t.memory_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = t.memory_id)`,
    );
    orphans[table] = row?.n ?? 0;
  }
  const ok = sqliteProblems.length === 0 && foreignKeyViolations === 0 && Object.values(orphans).every((n) => n === 0);
  return { ok, sqliteProblems, foreignKeyViolations, orphans };
}

/** Whether an FTS5 index removes a deleted row's entries in place (its `secure-delete` option). */
export function ftsSecureDeleteOn(db: SqlReader, index: string): boolean {
  if (!FTS_INDEXES.some((f) => f.index === index)) throw new Error(`not an FTS index: ${index}`);
  return db.get<{ v: number }>(`SELECT v FROM ${index}_config WHERE k = 'secure-delete'`)?.v === 1;
}
