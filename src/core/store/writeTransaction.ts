/**
 * Runs one write function inside a SAVEPOINT on a SqlDatabase and records every successful
 * data-changing statement (SQL text + a private copy of its parameters). The recording is what the
 * durable store appends to its journal; replaying it on the same state reproduces the transaction.
 */
import { MemoryError } from '../errors';
import { assertDeterministicSql } from './nondeterministicSql';
import type { SqlDatabase } from './sqlDatabase';
import type { SqlParams, SqlValue, SqlWriter } from './storeTypes';

export interface RecordedStatement {
  readonly sql: string;
  readonly params?: SqlParams;
}

export interface TransactionOutcome<T> {
  readonly result: T;
  readonly statements: readonly RecordedStatement[];
}

function copyValue(v: SqlValue): SqlValue {
  return v instanceof Uint8Array ? new Uint8Array(v) : v;
}

/** Callers may reuse their parameter arrays; the journal needs the values as they were. */
function copyParams(params: SqlParams | undefined): SqlParams | undefined {
  if (params === undefined) return undefined;
  if (Array.isArray(params)) return (params as readonly SqlValue[]).map(copyValue);
  const out: Record<string, SqlValue> = {};
  for (const [k, v] of Object.entries(params as Record<string, SqlValue>)) out[k] = copyValue(v);
  return out;
}

function isThenable(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

const SAVEPOINT = 'am_write';

/**
 * Runs `fn` in a savepoint. On success `beforeRelease` sees the recorded statements (it may throw
 * to undo the write) and the savepoint is released (the caller owns the enclosing transaction and
 * decides to COMMIT or ROLLBACK); on a throw it is rolled back and the error rethrown. `fn` must be
 * synchronous.
 */
export function runRecorded<T>(db: SqlDatabase, fn: (w: SqlWriter) => T, beforeRelease?: (statements: readonly RecordedStatement[]) => void): TransactionOutcome<T> {
  const statements: RecordedStatement[] = [];
  let open = true;
  const guard = (): void => {
    if (!open) throw new MemoryError('E_INTERNAL', 'A store writer was used after its transaction ended.');
  };
  const writer: SqlWriter = {
    all: (sql, params) => { guard(); return db.all(sql, params); },
    get: (sql, params) => { guard(); return db.get(sql, params); },
    hasTable: (name) => { guard(); return db.hasTable(name); },
    run: (sql, params) => {
      guard();
      assertDeterministicSql(sql);
      const outcome = db.run(sql, params);
      statements.push(params === undefined ? { sql } : { sql, params: copyParams(params) });
      return outcome;
    },
  };
  db.exec(`SAVEPOINT ${SAVEPOINT}`);
  try {
    const result = fn(writer);
    if (isThenable(result)) throw new MemoryError('E_INTERNAL', 'A store write function must be synchronous (it returned a promise).');
    open = false;
    beforeRelease?.(statements);
    db.exec(`RELEASE ${SAVEPOINT}`);
    return { result, statements };
  } catch (e) {
    db.exec(`ROLLBACK TO ${SAVEPOINT}`);
    db.exec(`RELEASE ${SAVEPOINT}`);
    throw e;
  } finally {
    open = false;
  }
}

/** Re-executes recorded statements (journal replay). Throws if the state has diverged. */
export function replayStatements(db: SqlDatabase, statements: readonly RecordedStatement[]): void {
  for (const s of statements) db.execute(s.sql, s.params);
}
