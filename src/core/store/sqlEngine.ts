/**
 * The one place that loads the WASM SQLite engine (fts5-sql-bundle: the sql.js API built with
 * FTS5; docs/store.md describes the engine and its figures). Nothing else in
 * the code base imports the engine; everything goes through SqlDatabase.
 */
import { initSqlJs } from 'fts5-sql-bundle';
import type { Database, SqlJsStatic } from 'fts5-sql-bundle';

export type EngineDatabase = Database;

let engine: Promise<SqlJsStatic> | undefined;
let loaded: SqlJsStatic | undefined;

/** Loads the engine once per process (the wasm module is ~1 MB; loading takes tens of ms). */
export function loadSqlEngine(): Promise<SqlJsStatic> {
  if (!engine) {
    engine = initSqlJs().then((sql) => { loaded = sql; return sql; });
    engine.catch(() => { engine = undefined; });
  }
  return engine;
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

/** Synchronous variant for code that runs after a store was opened (the engine is loaded then). */
export function createEngineDatabaseSync(image?: Uint8Array, ownership: ImageOwnership = 'copy'): EngineDatabase {
  if (!loaded) throw new Error('The SQLite engine is not loaded yet.');
  return image ? new loaded.Database(engineImage(image, ownership)) : new loaded.Database();
}

/** A new empty database, or one deserialised from a SQLite file image. */
export async function createEngineDatabase(image?: Uint8Array, ownership: ImageOwnership = 'copy'): Promise<EngineDatabase> {
  const sql = await loadSqlEngine();
  return image ? new sql.Database(engineImage(image, ownership)) : new sql.Database();
}
