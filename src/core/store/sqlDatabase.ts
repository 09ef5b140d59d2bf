/**
 * A thin, typed wrapper over one in-memory engine database: cached prepared statements, parameter
 * normalisation, row objects, and SQL errors turned into coded MemoryErrors (no raw SQL error text
 * reaches users). Used by both the in-memory store and the durable store.
 */
import { MemoryError } from '../errors';
import { abandonEngine, currentEngineGeneration, engineGenerationOf, execScript, isEngineTrap } from './sqlEngine';
import type { EngineDatabase } from './sqlEngine';
import type { Row, RunResult, SqlParams, SqlValue } from './storeTypes';

type EngineStatement = ReturnType<EngineDatabase['prepare']>;
type BindValue = string | number | null | Uint8Array;

/** How many prepared statements stay cached (LRU) per database. */
export const STATEMENT_CACHE_SIZE = 256;

/** Statements that change the schema are never cached (they run once). */
const SCHEMA_CHANGE = /^\s*(create|drop|alter|pragma|begin|commit|rollback|savepoint|release)\b/i;

function bindValue(v: SqlValue): BindValue {
  if (typeof v === 'bigint') {
    if (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(v);
    throw new MemoryError('E_INVALID_INPUT', 'An integer parameter is outside the range the store can hold exactly.');
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined) return null;
  return v;
}

/** sql.js wants named parameters with their prefix (":a", "$a", "@a"); accept bare names too. */
function bindParams(params: SqlParams | undefined): BindValue[] | Record<string, BindValue> | undefined {
  if (params === undefined) return undefined;
  if (Array.isArray(params)) return (params as readonly SqlValue[]).map(bindValue);
  const out: Record<string, BindValue> = {};
  for (const [key, value] of Object.entries(params as Record<string, SqlValue>)) {
    const v = bindValue(value);
    if (/^[:$@]/.test(key)) { out[key] = v; continue; }
    out[`:${key}`] = v; out[`$${key}`] = v; out[`@${key}`] = v;
  }
  return out;
}

export function engineBroken(cause?: unknown): MemoryError {
  return new MemoryError('E_STORE_CORRUPT', 'The SQLite engine of this window failed internally and was restarted; try again (a memory store with files on disk is rebuilt from them, where nothing acknowledged was lost). If it keeps failing, restart the window or CLI.', undefined, { cause });
}

function sqlError(e: unknown, sql: string): MemoryError {
  if (e instanceof MemoryError) return e;
  if (isEngineTrap(e)) return engineBroken(e);
  const text = e instanceof Error ? e.message : String(e);
  if (/constraint/i.test(text)) return new MemoryError('E_INVALID_INPUT', `The store rejected the change (${text.split('\n')[0]}).`, { sql }, { cause: e });
  return new MemoryError('E_INTERNAL', 'A store query failed.', { sql, reason: text }, { cause: e });
}

/** One result row as an object keyed by column name (what the engine's getAsObject() builds). */
function rowObject(names: readonly string[], values: readonly unknown[]): Row {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
  return row as Row;
}

export class SqlDatabase {
  private readonly cache = new Map<string, EngineStatement>();
  private closed = false;
  /** Set after an engine trap: every later statement fails with E_STORE_CORRUPT. */
  private broken = false;
  /** The engine instance this database lives in (sqlEngine.ts abandons an instance that trapped). */
  private readonly generation: number | undefined;

  constructor(private readonly db: EngineDatabase) {
    this.generation = engineGenerationOf(db);
  }

  /**
   * True after a trap of this database or of any other database of the same engine instance
   * (they share its memory): the durable store rebuilds this database from disk in a new instance.
   */
  get isBroken(): boolean { return this.broken || (this.generation !== undefined && this.generation !== currentEngineGeneration()); }

  private fail(e: unknown, sql: string): MemoryError {
    if (isEngineTrap(e)) {
      this.broken = true;
      abandonEngine(this.generation);
    }
    return sqlError(e, sql);
  }

  all<T extends object = Row>(sql: string, params?: SqlParams): T[] {
    const stmt = this.statement(sql);
    try {
      const bound = bindParams(params);
      if (bound !== undefined) stmt.bind(bound as never);
      const rows: T[] = [];
      if (!stmt.step()) return rows;
      // The column names once per call, not once per row as getAsObject() reads them: two engine
      // calls per column per row were a quarter of a recall's hydration (docs/store.md, "Recall
      // latency, fourth round").
      const names = stmt.getColumnNames();
      do rows.push(rowObject(names, stmt.get()) as T); while (stmt.step());
      return rows;
    } catch (e) {
      throw this.fail(e, sql);
    } finally {
      this.release(sql, stmt);
    }
  }

  get<T extends object = Row>(sql: string, params?: SqlParams): T | undefined {
    const stmt = this.statement(sql);
    try {
      const bound = bindParams(params);
      if (bound !== undefined) stmt.bind(bound as never);
      return stmt.step() ? (stmt.getAsObject() as T) : undefined;
    } catch (e) {
      throw this.fail(e, sql);
    } finally {
      this.release(sql, stmt);
    }
  }

  /**
   * Runs one statement; reports the rows it changed. (No last-insert rowid: nothing used it, and
   * the extra `SELECT last_insert_rowid()` after every statement was a second statement per write
   * on the ingest path: docs/store.md, "Ingest throughput, third round".)
   */
  run(sql: string, params?: SqlParams): RunResult {
    this.execute(sql, params);
    return { changes: this.db.getRowsModified() };
  }

  /** Runs one statement without reporting a result (journal replay: no extra rowid query). */
  execute(sql: string, params?: SqlParams): void {
    const stmt = this.statement(sql);
    try {
      const bound = bindParams(params);
      if (bound !== undefined) stmt.bind(bound as never);
      stmt.step();
    } catch (e) {
      throw this.fail(e, sql);
    } finally {
      this.release(sql, stmt);
    }
  }

  /** Executes statements without parameters (transaction control, pragmas). */
  exec(sql: string): void {
    if (this.isBroken) throw engineBroken();
    try { execScript(this.db, sql); } catch (e) { throw this.fail(e, sql); }
  }

  hasTable(name: string): boolean {
    return this.get("SELECT 1 AS found FROM sqlite_master WHERE type IN ('table','view') AND name = ?", [name]) !== undefined;
  }

  /**
   * Rewrites the database without its free pages (VACUUM), between transactions. Not journaled:
   * it changes no row, and rowids (which journal records and the FTS indexes name) are kept, as
   * the test "vacuum keeps rowids" checks for a table without an INTEGER PRIMARY KEY.
   */
  vacuum(): void {
    this.clearCache();
    this.exec('VACUUM');
  }

  /** Serialises the whole database to a SQLite file image. */
  export(): Uint8Array {
    if (this.isBroken) throw engineBroken();
    // sql.js export() frees prepared statements; drop the cache so nothing dangles.
    this.clearCache();
    return this.db.export();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.isBroken) {
      // The abandoned instance may trap again on the way out; its memory goes with it.
      try { this.clearCache(); this.db.close(); } catch { this.cache.clear(); }
      return;
    }
    this.clearCache();
    this.db.close();
  }

  private statement(sql: string): EngineStatement {
    if (this.closed) throw new MemoryError('E_INTERNAL', 'The store is closed.');
    if (this.isBroken) throw engineBroken();
    const cached = this.cache.get(sql);
    if (cached) {
      this.cache.delete(sql);
      return cached;
    }
    try {
      return this.db.prepare(sql);
    } catch (e) {
      throw this.fail(e, sql);
    }
  }

  /** Resets a statement and returns it to the LRU cache (or frees it). */
  private release(sql: string, stmt: EngineStatement): void {
    try { stmt.reset(); } catch { /* a failed step leaves the statement resettable on the next bind */ }
    if (SCHEMA_CHANGE.test(sql) || this.closed || this.cache.has(sql)) { stmt.free(); return; }
    this.cache.set(sql, stmt);
    if (this.cache.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.get(oldest)?.free();
      this.cache.delete(oldest);
    }
  }

  private clearCache(): void {
    for (const stmt of this.cache.values()) stmt.free();
    this.cache.clear();
  }
}
