/**
 * The memory row primitives the remember() pipeline builds on: normalisation and hashing
 *, insert with dedup (source id first, then content hash),
 * and typed reads.
 */
import { createHash, randomUUID } from 'node:crypto';
import { MemoryError } from '../errors';
import { bool, num, optNum, optStr, str, tagList } from '../store/rowMapping';
import type { Row, SqlReader, SqlWriter } from '../store/storeTypes';

export type ExtractionStatus = 'none' | 'pending' | 'complete' | 'failed';

export interface NewMemory {
  readonly content: string;
  /** Defaults to a random UUID. */
  readonly id?: string;
  readonly type?: string;
  readonly importance?: number;
  readonly confidence?: number;
  readonly sourceId?: string;
  readonly sourceType?: string;
  readonly sessionKey?: string;
  readonly project?: string;
  readonly scope?: string;
  readonly agentId?: string;
  readonly who?: string;
  readonly why?: string;
  readonly tags?: readonly string[];
  readonly pinned?: boolean;
  readonly extractionStatus?: ExtractionStatus;
  /** ISO-8601 creation time; the caller passes the clock's time when the source has none. */
  readonly createdAt: string;
}

export interface MemoryRecord {
  readonly id: string;
  readonly type: string;
  readonly content: string;
  readonly contentHash: string | null;
  readonly importance: number;
  readonly confidence: number;
  readonly sourceId: string | null;
  readonly sourceType: string | null;
  readonly sessionKey: string | null;
  readonly project: string | null;
  readonly scope: string | null;
  readonly agentId: string;
  readonly who: string | null;
  readonly why: string | null;
  readonly tags: string[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastAccessed: string | null;
  readonly accessCount: number;
  readonly isDeleted: boolean;
  readonly deletedAt: string | null;
  readonly extractionStatus: string;
  readonly pinned: boolean;
}

export interface InsertOutcome {
  readonly id: string;
  /** True when an existing live memory matched (by source id, then content hash); nothing was written. */
  readonly duplicate: boolean;
}

/** The text as stored: CRLF → LF, trimmed. */
export function storageContent(content: string): string {
  return content.replace(/\r\n?/g, '\n').trim();
}

/** Lowercase, whitespace collapsed, trailing punctuation stripped. */
export function normalizeContent(content: string): string {
  return storageContent(content).toLowerCase().replace(/\s+/g, ' ').replace(/[.,!?;:]+$/, '').trim();
}

/** SHA-256 hex of the normalised text (or of the lowercased text when normalising empties it). */
export function contentHash(content: string): string {
  const normalized = normalizeContent(content);
  const basis = normalized.length > 0 ? normalized : storageContent(content).toLowerCase();
  return createHash('sha256').update(basis, 'utf8').digest('hex');
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * Validates an ISO-8601 timestamp and returns it in canonical UTC form. Every field is range
 * checked: Date.parse rolls "2026-02-30" over to March 2, which would silently store another day.
 */
export function canonicalIso(value: string, field = 'createdAt'): string {
  const ms = Date.parse(value);
  const shape = `${field} must be an ISO-8601 time such as 2026-01-31T09:00:00Z (got '${value}').`;
  if (!ISO.test(value) || Number.isNaN(ms)) throw new MemoryError('E_INVALID_INPUT', shape);
  const [y, mo, d, h, mi, s] = (/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value) ?? []).slice(1).map((g) => Number(g ?? 0)) as [number, number, number, number, number, number];
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(value);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59
    || (offset && (Number(offset[2]) > 23 || Number(offset[3]) > 59))) {
    throw new MemoryError('E_INVALID_INPUT', `${field} is not a real time (got '${value}'): check the day of the month and the hours.`);
  }
  return new Date(ms).toISOString();
}

function unitInterval(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new MemoryError('E_INVALID_INPUT', `${field} must be a number from 0 to 1 (got ${value}).`);
  return value;
}

const LIVE_SCOPE = "is_deleted = 0 AND agent_id = ? AND COALESCE(project, '') = ? AND COALESCE(scope, '__NULL__') = ?";

/** Finds a live memory this input duplicates: same source id (and type), else same content hash. */
export function findDuplicate(db: SqlReader, input: NewMemory, hash = contentHash(input.content)): string | undefined {
  const scope = [input.agentId ?? 'default', input.project ?? '', input.scope ?? '__NULL__'];
  if (input.sourceId !== undefined) {
    const bySource = db.get<{ id: string }>(
      `SELECT id FROM memories WHERE source_id = ? AND COALESCE(source_type, '') = ? AND ${LIVE_SCOPE} ORDER BY created_at LIMIT 1`,
      [input.sourceId, input.sourceType ?? '', ...scope]);
    if (bySource) return bySource.id;
  }
  return db.get<{ id: string }>(`SELECT id FROM memories WHERE content_hash = ? AND ${LIVE_SCOPE} LIMIT 1`, [hash, ...scope])?.id;
}

/**
 * Inserts a memory unless a live duplicate exists (then returns its id with duplicate: true).
 * Run inside store.write(): the durable store holds the write lock and has caught up with other
 * processes, so the dedup check sees every committed memory.
 */
export function insertMemory(db: SqlWriter, input: NewMemory): InsertOutcome {
  const content = storageContent(input.content);
  if (content.length === 0) throw new MemoryError('E_INVALID_INPUT', 'A memory needs some text.');
  const createdAt = canonicalIso(input.createdAt);
  const hash = contentHash(content);
  const existing = findDuplicate(db, input, hash);
  if (existing !== undefined) return { id: existing, duplicate: true };
  const id = input.id ?? randomUUID();
  db.run(
    `INSERT INTO memories (id, type, content, content_hash, importance, confidence, source_id, source_type,
       session_key, project, scope, agent_id, who, why, tags, created_at, updated_at, extraction_status, pinned)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, input.type ?? 'fact', content, hash,
      unitInterval(input.importance, 0.5, 'importance'), unitInterval(input.confidence, 1, 'confidence'),
      input.sourceId ?? null, input.sourceType ?? null, input.sessionKey ?? null, input.project ?? null, input.scope ?? null,
      input.agentId ?? 'default', input.who ?? null, input.why ?? null,
      input.tags && input.tags.length > 0 ? input.tags.map((t) => t.trim().toLowerCase()).filter((t) => t).join(',') : null,
      createdAt, createdAt, input.extractionStatus ?? 'none', input.pinned ? 1 : 0]);
  return { id, duplicate: false };
}

export function mapMemoryRow(row: Row): MemoryRecord {
  return {
    id: str(row, 'id'),
    type: str(row, 'type'),
    content: str(row, 'content'),
    contentHash: optStr(row, 'content_hash'),
    importance: num(row, 'importance'),
    confidence: num(row, 'confidence'),
    sourceId: optStr(row, 'source_id'),
    sourceType: optStr(row, 'source_type'),
    sessionKey: optStr(row, 'session_key'),
    project: optStr(row, 'project'),
    scope: optStr(row, 'scope'),
    agentId: str(row, 'agent_id'),
    who: optStr(row, 'who'),
    why: optStr(row, 'why'),
    tags: tagList(row, 'tags'),
    createdAt: str(row, 'created_at'),
    updatedAt: str(row, 'updated_at'),
    lastAccessed: optStr(row, 'last_accessed'),
    accessCount: optNum(row, 'access_count') ?? 0,
    isDeleted: bool(row, 'is_deleted'),
    deletedAt: optStr(row, 'deleted_at'),
    extractionStatus: str(row, 'extraction_status'),
    pinned: bool(row, 'pinned'),
  };
}

/** A memory by id, including soft-deleted ones (check isDeleted). */
export function getMemory(db: SqlReader, id: string): MemoryRecord | undefined {
  const row = db.get<Row>('SELECT * FROM memories WHERE id = ?', [id]);
  return row ? mapMemoryRow(row) : undefined;
}

/** Live (not deleted) memories, optionally of one project. */
export function countMemories(db: SqlReader, filter: { project?: string } = {}): number {
  if (filter.project === undefined) return countAllMemories(db) - countDeletedMemories(db);
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE is_deleted = 0 AND project = ?', [filter.project])?.n ?? 0;
}

/** Every memory row, live or soft-deleted (counted from the table's smallest index, no row reads). */
function countAllMemories(db: SqlReader): number {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n ?? 0;
}

/** Soft-deleted memories: reads the partial index of migration 27 when it exists (a scan before it). */
export function countDeletedMemories(db: SqlReader): number {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE is_deleted = 1')?.n ?? 0;
}
