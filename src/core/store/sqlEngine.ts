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

/** Synchronous variant for code that runs after a store was opened (the engine is loaded then). */
export function createEngineDatabaseSync(image?: Uint8Array): EngineDatabase {
  if (!loaded) throw new Error('The SQLite engine is not loaded yet.');
  return image ? new loaded.Database(image) : new loaded.Database();
}

/** A new empty database, or one deserialised from a SQLite file image. */
export async function createEngineDatabase(image?: Uint8Array): Promise<EngineDatabase> {
  const sql = await loadSqlEngine();
  return image ? new sql.Database(image) : new sql.Database();
}
