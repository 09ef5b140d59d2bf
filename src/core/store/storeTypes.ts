/**
 * The contract every other core module codes against. Implemented by the durable,
 * multi-process store in this folder (see ARCHITECTURE.md, "Store").
 *
 * Reads are synchronous against the in-memory database (after catching up with other
 * processes' committed writes). Writes run a synchronous function inside one transaction
 * and resolve only once the transaction is durable on disk.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;
export type Row = Record<string, SqlValue>;

export interface SqlReader {
  /** All rows of a query (statement cached by SQL text). */
  all<T extends object = Row>(sql: string, params?: SqlParams): T[];
  /** The first row, or undefined. */
  get<T extends object = Row>(sql: string, params?: SqlParams): T | undefined;
  /** Whether a table exists (used to make graph-dependent work a no-op without the graph tables). */
  hasTable(name: string): boolean;
}

export interface RunResult {
  /** Rows the statement inserted, updated or deleted. */
  readonly changes: number;
}

export interface SqlWriter extends SqlReader {
  /** Executes one data-changing statement; it is recorded for the journal. */
  run(sql: string, params?: SqlParams): RunResult;
}

export interface StoreChange {
  /** True when the change came from another process (window or CLI). */
  readonly external: boolean;
  /** Labels of the transactions applied (e.g. "remember", "pin"). */
  readonly labels: readonly string[];
}

export interface Disposable {
  dispose(): void;
}

export interface MemoryStore {
  /** Absolute folder of the store. */
  readonly dir: string;
  /** A stable random id of this store (meta table). */
  readonly storeId: string;
  read<T>(fn: (db: SqlReader) => T): T;
  /**
   * Runs `fn` in one transaction under the store's write lock, after applying every write other
   * processes committed before it. Resolves once the transaction is durable (journal fsync'd).
   * If `fn` throws, nothing is written and the promise rejects with that error.
   */
  write<T>(label: string, fn: (db: SqlWriter) => T): Promise<T>;
  /**
   * A write that need not be durable before the caller goes on (recall bookkeeping): it commits
   * with this process's next write() (in request order, same lock hold and fsync), after
   * `deferredWriteMs` at the latest, on flushDeferred(), or on close. The promise resolves when it
   * is durable. Nothing waits for it on the caller's path; a crash can lose up to that window.
   */
  writeLater<T>(label: string, fn: (db: SqlWriter) => T): Promise<T>;
  /** Commits every writeLater() write now; resolves when they are durable (or failed). */
  flushDeferred(): Promise<void>;
  /** Fires after local writes and after writes of other processes are applied. */
  onDidChange(listener: (change: StoreChange) => void): Disposable;
  /** Applies other processes' writes now (reads also do this cheaply). */
  refresh(): void;
  close(): Promise<void>;
}
