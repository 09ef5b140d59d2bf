/**
 * Typed row mapping helpers: read one column of a Row with the type the caller expects, and fail
 * with a clear internal error (never a silent `undefined`) when the schema and the code disagree.
 */
import { MemoryError } from '../errors';
import type { Row, SqlValue } from './storeTypes';

function column(row: Row, name: string): SqlValue {
  if (!(name in row)) throw new MemoryError('E_INTERNAL', `The store row has no column '${name}'.`);
  return row[name] as SqlValue;
}

export function str(row: Row, name: string): string {
  const v = column(row, name);
  if (typeof v !== 'string') throw new MemoryError('E_INTERNAL', `Column '${name}' is not text.`);
  return v;
}

export function optStr(row: Row, name: string): string | null {
  const v = column(row, name);
  if (v === null) return null;
  return typeof v === 'string' ? v : String(v);
}

export function num(row: Row, name: string): number {
  const v = column(row, name);
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw new MemoryError('E_INTERNAL', `Column '${name}' is not a number.`);
}

export function optNum(row: Row, name: string): number | null {
  const v = column(row, name);
  return v === null ? null : num(row, name);
}

/** SQLite stores booleans as 0/1 integers. */
export function bool(row: Row, name: string): boolean {
  return num(row, name) !== 0;
}

export function optBlob(row: Row, name: string): Uint8Array | null {
  const v = column(row, name);
  if (v === null) return null;
  if (v instanceof Uint8Array) return v;
  throw new MemoryError('E_INTERNAL', `Column '${name}' is not a blob.`);
}

/** Comma-separated tags column to a list (empty entries dropped). */
export function tagList(row: Row, name: string): string[] {
  const v = optStr(row, name);
  return v ? v.split(',').map((t) => t.trim()).filter((t) => t.length > 0) : [];
}
