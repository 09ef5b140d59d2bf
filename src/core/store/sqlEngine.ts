/**
 * The one place that loads the WASM SQLite engine (fts5-sql-bundle: the sql.js API built with
 * FTS5; docs/store.md describes the engine and its figures). Nothing else in
 * the code base imports the engine; everything goes through SqlDatabase.
 *
 * One engine instance serves every database of the process: they share its WebAssembly memory,
 * stack and in-memory file system. A trap inside it (docs/store.md, "Engine traps") leaves that
 * shared state unreliable (a trap does not even restore the stack pointer), so the instance is
 * abandoned: every database made by it reports itself broken, and a new instance is loaded for
 * the databases rebuilt from disk afterwards.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { initSqlJs } from 'fts5-sql-bundle';
import type { Database, SqlJsStatic } from 'fts5-sql-bundle';

export type EngineDatabase = Database;

let engine: Promise<SqlJsStatic> | undefined;
let loaded: SqlJsStatic | undefined;
/** Which instance is current: bumped when one trapped and was abandoned. */
let generation = 0;
/** The number of each loaded instance, and the instance each database was made by. */
const instanceGeneration = new WeakMap<SqlJsStatic, number>();
const madeBy = new WeakMap<EngineDatabase, SqlJsStatic>();

/**
 * The engine's init function. The build keeps its instance in its own module scope (a second call
 * returns the same instance), so after an instance was abandoned the module is evaluated again.
 */
function initFunction(): typeof initSqlJs {
  if (generation === 0) return initSqlJs;
  const requireHere = createRequire(__filename);
  const index = requireHere.resolve('fts5-sql-bundle');
  for (const id of [index, join(dirname(index), 'sql-wasm.js')]) delete requireHere.cache[id];
  return (requireHere(index) as { initSqlJs: typeof initSqlJs }).initSqlJs;
}

/** Loads the engine once per process (the wasm module is ~1 MB; loading takes tens of ms). */
export function loadSqlEngine(): Promise<SqlJsStatic> {
  if (!engine) {
    const mine = generation;
    const loading = initFunction()().then((sql) => {
      instanceGeneration.set(sql, mine);
      if (mine === generation) loaded = sql;
      return sql;
    });
    engine = loading;
    loading.catch(() => { if (engine === loading) engine = undefined; });
  }
  return engine;
}

/** A trap inside the WASM engine (e.g. "memory access out of bounds"): its instance is unusable after it. */
export function isEngineTrap(e: unknown): boolean {
  return e instanceof Error && e.name === 'RuntimeError';
}

/** The current engine instance's number (0 for the first of the process). */
export function currentEngineGeneration(): number {
  return generation;
}

/** The number of the instance a database was made by (undefined for one it did not make, such as a test's stand-in). */
export function engineGenerationOf(db: EngineDatabase): number | undefined {
  const sql = madeBy.get(db);
  return sql ? instanceGeneration.get(sql) : undefined;
}

/** Whether the current instance is loaded (a database can be made synchronously). */
export function engineReady(): boolean {
  return loaded !== undefined;
}

/**
 * Abandons the instance a trapped database was made by, and starts loading a new one. Once per
 * instance: a second trap of the same (already abandoned) instance changes nothing.
 */
export function abandonEngine(trappedGeneration: number | undefined): void {
  if (trappedGeneration !== generation) return;
  generation += 1;
  loaded = undefined;
  engine = undefined;
  void loadSqlEngine().catch(() => { /* the next open or rebuild reports it */ });
}

/**
 * What happens to an image handed to the engine. sql.js writes it into its in-memory file system
 * with `image.slice()`: for a Node Buffer that is a view, so the engine takes the bytes over (and
 * its later page writes land in them); for any other Uint8Array it is a copy. At 100k memories the
 * copy was a second 196 MB image made on every open, so a freshly read snapshot is taken over
 * ('take': the caller must not use the bytes afterwards), and an image the caller keeps (the
 * migrated template of memoryStore.ts) is copied ('copy', the default).
 */
export type ImageOwnership = 'take' | 'copy';

function engineImage(image: Uint8Array, ownership: ImageOwnership): Uint8Array {
  return ownership === 'take'
    ? Buffer.from(image.buffer, image.byteOffset, image.byteLength)
    : new Uint8Array(image.buffer, image.byteOffset, image.byteLength);
}

/** The engine module's own stack functions (exported by the sql.js build, not in its typings). */
interface EngineStack {
  stackSave?: () => number;
  stackRestore?: (pointer: number) => void;
}

function engineStack(sql: SqlJsStatic | undefined): EngineStack {
  return (sql ?? {}) as EngineStack;
}

/**
 * Runs a SQL script (statements without parameters) and puts the engine's stack pointer back.
 * The engine's `Database.exec` takes 16 bytes of its 5 MiB WebAssembly stack for a pointer and
 * never gives them back, so about 330,000 calls in one process overflowed the stack into the
 * engine's static data: a long ingest then trapped ("memory access out of bounds", "null function
 * or function signature mismatch") or wrote at wild file offsets (docs/store.md, "Engine traps").
 */
export function execScript(db: EngineDatabase, sql: string): void {
  const stack = engineStack(madeBy.get(db));
  if (typeof stack.stackSave !== 'function' || typeof stack.stackRestore !== 'function') {
    db.exec(sql);
    return;
  }
  const pointer = stack.stackSave();
  try {
    db.exec(sql);
  } finally {
    stack.stackRestore(pointer);
  }
}

/** The current instance's stack pointer, or undefined before it is loaded (the leak check in the store tests reads it). */
export function engineStackPointer(): number | undefined {
  const stack = engineStack(loaded);
  return typeof stack.stackSave === 'function' ? stack.stackSave() : undefined;
}

/**
 * Makes a database and records which instance made it (an await may have outlived that
 * instance). Loading an image into an instance that trapped can trap again: that instance is
 * abandoned too.
 */
function made(sql: SqlJsStatic, image: Uint8Array | undefined, ownership: ImageOwnership): EngineDatabase {
  let db: EngineDatabase;
  try {
    db = image ? new sql.Database(engineImage(image, ownership)) : new sql.Database();
  } catch (e) {
    if (isEngineTrap(e)) abandonEngine(instanceGeneration.get(sql));
    throw e;
  }
  madeBy.set(db, sql);
  return db;
}

/** Synchronous variant for code that runs after a store was opened (the engine is loaded then). */
export function createEngineDatabaseSync(image?: Uint8Array, ownership: ImageOwnership = 'copy'): EngineDatabase {
  if (!loaded) throw new Error('The SQLite engine is not loaded yet.');
  return made(loaded, image, ownership);
}

/** A new empty database, or one deserialised from a SQLite file image. */
export async function createEngineDatabase(image?: Uint8Array, ownership: ImageOwnership = 'copy'): Promise<EngineDatabase> {
  const sql = await loadSqlEngine();
  return made(sql, image, ownership);
}
