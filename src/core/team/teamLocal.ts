/**
 * The local half of team memory: what this store shares, its durable outbox, and applying rows
 * pulled from the server to the local replica (docs/team.md). Pure SQL over the store's tables
 * from migration 24 (teamMigration.ts); the network half is teamSync.ts.
 *
 * What is shared: the memories of the projects listed in team_state 'shared_projects', except
 * those someone took back with Stop Sharing. Pins, aspect weights, feedback and sessions are not
 * memories and never travel. Replicas are ordinary memories (source_type 'team', `who` = author),
 * so recall, the graph and the UI treat them like any memory and extraction runs on them locally.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import type { JobsConfig } from '../config/jobsConfig';
import type { RedactionConfig } from '../config/redactionConfig';
import { MemoryError } from '../errors';
import { enqueueJob, JOB_TYPES } from '../jobs/jobQueue';
import { forgetMemoryInTransaction } from '../memory/forget';
import { canonicalIso, contentHash, insertMemory, normalizeContent, storageContent } from '../memory/memoryRecords';
import { redactSecrets } from '../memory/redaction';
import { blobToVector, upsertMemoryVector, decodeVector } from '../models/vectorStore';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

export const TEAM_SOURCE_TYPE = 'team';

export interface TeamLocalState {
  readonly connectionString: string | undefined;
  readonly sharedProjects: readonly string[];
  /** Server sequence number of the last pulled row applied here. */
  readonly cursor: number;
  /** The role the server knows this store as (set at connect). */
  readonly role: string | undefined;
}

function stateValue(db: SqlReader, key: string): string | undefined {
  return db.get<{ value: string }>('SELECT value FROM team_state WHERE key = ?', [key])?.value;
}

export function setStateValue(db: SqlWriter, key: string, value: string | undefined): void {
  if (value === undefined) db.run('DELETE FROM team_state WHERE key = ?', [key]);
  else db.run('INSERT INTO team_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
}

export function readTeamState(db: SqlReader): TeamLocalState {
  let projects: string[] = [];
  const raw = stateValue(db, 'shared_projects');
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) projects = parsed.filter((p): p is string => typeof p === 'string');
    } catch { /* a damaged list shares nothing rather than everything */ }
  }
  return { connectionString: stateValue(db, 'connection'), sharedProjects: projects, cursor: Number(stateValue(db, 'cursor') ?? 0) || 0, role: stateValue(db, 'role') };
}

/** Saves the connection (no password) and restarts the cursor when the server changed. */
export function saveConnection(db: SqlWriter, connectionString: string, serverKey: string, role: string): void {
  const before = stateValue(db, 'server');
  if (before !== serverKey) {
    setStateValue(db, 'cursor', '0');
    // Replicas of the other server stay as memories but no longer follow it.
    db.run("DELETE FROM team_shares WHERE origin = 'remote'");
    db.run("UPDATE team_shares SET pushed_hash = NULL, vector_pushed = 0 WHERE origin = 'local'");
  }
  setStateValue(db, 'server', serverKey);
  setStateValue(db, 'connection', connectionString);
  setStateValue(db, 'role', role);
}

/** Forgets the connection; memories, replicas and the outbox stay (reconnecting resumes). */
export function clearConnection(db: SqlWriter): void {
  setStateValue(db, 'connection', undefined);
}

const PROJECT_MAX = 500;

export function setProjectShared(db: SqlWriter, project: string, shared: boolean): readonly string[] {
  const name = project.trim();
  if (!name || name.length > PROJECT_MAX) throw new MemoryError('E_INVALID_INPUT', `A project name must have 1 to ${PROJECT_MAX} characters.`);
  const current = new Set(readTeamState(db).sharedProjects);
  if (shared) current.add(name); else current.delete(name);
  const list = [...current].sort();
  setStateValue(db, 'shared_projects', JSON.stringify(list));
  // A newly shared project is pulled from the start (the cursor only covered the other projects).
  if (shared) setStateValue(db, 'cursor', '0');
  return list;
}

function upsertOutbox(db: SqlWriter, memoryId: string, op: 'upsert' | 'tombstone', now: string): void {
  db.run(`INSERT INTO team_outbox (memory_id, op, version, enqueued_at) VALUES (?, ?, 1, ?)
          ON CONFLICT(memory_id) DO UPDATE SET op = excluded.op, version = team_outbox.version + 1, enqueued_at = excluded.enqueued_at`, [memoryId, op, now]);
}

/** Share with Team: a memory of a shared project goes (back) to the server. */
export function shareMemory(db: SqlWriter, memoryId: string, nowIso: string): void {
  const m = db.get<{ project: string | null; is_deleted: number }>('SELECT project, is_deleted FROM memories WHERE id = ?', [memoryId]);
  if (!m || m.is_deleted) throw new MemoryError('E_NOT_FOUND', `No memory with id ${memoryId}.`);
  const share = db.get<{ origin: string }>('SELECT origin FROM team_shares WHERE memory_id = ?', [memoryId]);
  if (share?.origin === 'remote') throw new MemoryError('E_INVALID_INPUT', 'This memory came from the team already.');
  const { sharedProjects } = readTeamState(db);
  if (!m.project || !sharedProjects.includes(m.project)) {
    throw new MemoryError('E_INVALID_INPUT', `Project "${m.project ?? '(none)'}" is not shared with the team: share the project first (agent-memory team share --project NAME, or the agentMemory.team.sharedProjects setting).`);
  }
  db.run(`INSERT INTO team_shares (memory_id, origin, project, state, updated_at) VALUES (?, 'local', ?, 'shared', ?)
          ON CONFLICT(memory_id) DO UPDATE SET state = 'shared', pushed_hash = NULL, vector_pushed = 0, updated_at = excluded.updated_at`, [memoryId, m.project, nowIso]);
  upsertOutbox(db, memoryId, 'upsert', nowIso);
}

/** Stop Sharing: the server row becomes a tombstone (every replica forgets it); the memory stays here. */
export function unshareMemory(db: SqlWriter, memoryId: string, nowIso: string): void {
  const m = db.get<{ project: string | null }>('SELECT project FROM memories WHERE id = ?', [memoryId]);
  if (!m) throw new MemoryError('E_NOT_FOUND', `No memory with id ${memoryId}.`);
  const share = db.get<{ origin: string }>('SELECT origin FROM team_shares WHERE memory_id = ?', [memoryId]);
  if (share?.origin === 'remote') throw new MemoryError('E_INVALID_INPUT', 'This memory was shared by a teammate; only its author can stop sharing it (you can forget your copy).');
  db.run(`INSERT INTO team_shares (memory_id, origin, project, state, updated_at) VALUES (?, 'local', ?, 'personal', ?)
          ON CONFLICT(memory_id) DO UPDATE SET state = 'personal', updated_at = excluded.updated_at`, [memoryId, m.project ?? '', nowIso]);
  upsertOutbox(db, memoryId, 'tombstone', nowIso);
}

function placeholders(n: number): string {
  return new Array(n).fill('?').join(',');
}

export interface ScanPlan {
  readonly fresh: readonly { id: string; project: string }[];
  readonly changed: readonly string[];
  readonly gone: readonly string[];
}

/**
 * What the outbox lacks: memories of shared projects never queued, shared memories whose text
 * or vector changed since the server acknowledged them, and shared memories forgotten or deleted
 * here. A read, so an idle sync costs no write.
 */
export function planScan(db: SqlReader, projects: readonly string[]): ScanPlan {
  if (projects.length === 0) return { fresh: [], changed: [], gone: [] };
  const p = placeholders(projects.length);
  const fresh = db.all<{ id: string; project: string }>(
    `SELECT m.id, m.project FROM memories m
      WHERE m.project IN (${p}) AND m.is_deleted = 0
        AND NOT EXISTS (SELECT 1 FROM team_shares t WHERE t.memory_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM team_shares t WHERE t.local_id = m.id)`, [...projects]);
  const changed = db.all<{ id: string }>(
    `SELECT t.memory_id AS id FROM team_shares t JOIN memories m ON m.id = t.memory_id
      WHERE t.origin = 'local' AND t.state = 'shared' AND t.project IN (${p}) AND m.is_deleted = 0
        AND NOT EXISTS (SELECT 1 FROM team_outbox o WHERE o.memory_id = t.memory_id)
        AND (t.pushed_hash IS NULL OR t.pushed_hash <> m.content_hash
             OR (t.vector_pushed = 0 AND EXISTS (SELECT 1 FROM embeddings e WHERE e.source_type = 'memory' AND e.source_id = m.id AND e.content_hash = m.content_hash)))`, [...projects]).map((r) => r.id);
  const gone = db.all<{ id: string }>(
    `SELECT t.memory_id AS id FROM team_shares t LEFT JOIN memories m ON m.id = COALESCE(t.local_id, t.memory_id)
      WHERE t.state = 'shared' AND t.project IN (${p}) AND (m.id IS NULL OR m.is_deleted = 1)`, [...projects]).map((r) => r.id);
  return { fresh, changed, gone };
}

export function planIsEmpty(plan: ScanPlan): boolean {
  return plan.fresh.length === 0 && plan.changed.length === 0 && plan.gone.length === 0;
}

/** Queues what planScan found (re-planned inside the write transaction, so it is current). */
export function applyScan(db: SqlWriter, projects: readonly string[], nowIso: string): number {
  const plan = planScan(db, projects);
  for (const f of plan.fresh) {
    db.run(`INSERT INTO team_shares (memory_id, origin, project, state, updated_at) VALUES (?, 'local', ?, 'shared', ?)`, [f.id, f.project, nowIso]);
    upsertOutbox(db, f.id, 'upsert', nowIso);
  }
  for (const id of plan.changed) upsertOutbox(db, id, 'upsert', nowIso);
  for (const id of plan.gone) {
    db.run("UPDATE team_shares SET state = 'tombstone', updated_at = ? WHERE memory_id = ?", [nowIso, id]);
    upsertOutbox(db, id, 'tombstone', nowIso);
  }
  return plan.fresh.length + plan.changed.length + plan.gone.length;
}

export function outboxSize(db: SqlReader): number {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_outbox')?.n ?? 0;
}

/** The fields a shared memory has on the server, whichever way it travels. */
interface TeamRowFields {
  readonly id: string;
  readonly project: string;
  readonly type: string;
  readonly content: string;
  readonly content_hash: string;
  readonly tags: string | null;
  readonly importance: number | null;
  readonly confidence: number | null;
  readonly created_at: string;
  readonly deleted: boolean;
  readonly model_id: string | null;
  readonly dimensions: number | null;
}

/** One row as it travels to the server (every text field redacted). */
export interface OutgoingRow extends TeamRowFields {
  /** base64 of the stored vector BLOB, in whichever layout the store holds it (models/vectorStore.ts). */
  readonly vector: string | null;
}

export interface OutboxItem {
  readonly memoryId: string;
  readonly version: number;
  readonly row: OutgoingRow;
}

const redactField = (text: string | null, cfg: RedactionConfig): string | null => (text === null ? null : redactSecrets(text, cfg).text);

/**
 * The next outbox entries with their rows, read from the memories as they are now (an upsert of
 * a memory deleted meanwhile travels as a tombstone). Redaction runs again on every text field:
 * the write path redacted the content already, but rules may have grown since, and project, type
 * and tags were never redacted.
 */
export function readOutbox(db: SqlReader, limit: number, redaction: RedactionConfig): OutboxItem[] {
  const entries = db.all<{ memory_id: string; op: string; version: number }>('SELECT memory_id, op, version FROM team_outbox ORDER BY seq LIMIT ?', [limit]);
  const out: OutboxItem[] = [];
  for (const e of entries) {
    const share = db.get<{ project: string; local_id: string | null }>('SELECT project, local_id FROM team_shares WHERE memory_id = ?', [e.memory_id]);
    const m = e.op === 'upsert'
      ? db.get<{ type: string; content: string; content_hash: string; tags: string | null; importance: number; confidence: number; created_at: string; project: string | null; is_deleted: number }>(
        'SELECT type, content, content_hash, tags, importance, confidence, created_at, project, is_deleted FROM memories WHERE id = ?', [e.memory_id])
      : undefined;
    const project = redactField(m?.project ?? share?.project ?? '', redaction) ?? '';
    if (!m || m.is_deleted) {
      out.push({ memoryId: e.memory_id, version: e.version, row: { id: e.memory_id, project: project || '(none)', type: 'fact', content: '', content_hash: '', tags: null, importance: null, confidence: null, created_at: '1970-01-01T00:00:00.000Z', deleted: true, model_id: null, dimensions: null, vector: null } });
      continue;
    }
    const content = redactSecrets(m.content, redaction).text;
    const hash = content === m.content ? m.content_hash : contentHash(content);
    const vec = hash === m.content_hash
      ? db.get<{ model_id: string; vector: Uint8Array; dimensions: number }>(
        "SELECT model_id, vector, dimensions FROM embeddings WHERE source_type = 'memory' AND source_id = ? AND content_hash = ? ORDER BY created_at DESC LIMIT 1", [e.memory_id, hash])
      : undefined;
    out.push({
      memoryId: e.memory_id, version: e.version,
      row: {
        id: e.memory_id, project, type: redactField(m.type, redaction) ?? 'fact', content, content_hash: hash,
        tags: redactField(m.tags, redaction), importance: m.importance, confidence: m.confidence, created_at: m.created_at, deleted: false,
        model_id: vec?.model_id ?? null, dimensions: vec?.dimensions ?? null, vector: vec ? Buffer.from(vec.vector).toString('base64') : null,
      },
    });
  }
  return out;
}

export interface PushAck {
  readonly memoryId: string;
  readonly version: number;
  readonly pushedHash: string;
  readonly vectorPushed: boolean;
  readonly deleted: boolean;
  /** The server refused the row (someone else's memory): drop it from the outbox, mark refused. */
  readonly refused?: boolean;
  readonly author?: string;
  readonly seq?: number;
}

/** Removes acknowledged entries (unless a newer change re-queued them) and records what the server holds. */
export function ackPushed(db: SqlWriter, acks: readonly PushAck[], nowIso: string): void {
  for (const a of acks) {
    db.run('DELETE FROM team_outbox WHERE memory_id = ? AND version = ?', [a.memoryId, a.version]);
    if (a.refused) {
      db.run("UPDATE team_shares SET state = 'refused', updated_at = ? WHERE memory_id = ?", [nowIso, a.memoryId]);
      continue;
    }
    db.run(`UPDATE team_shares SET pushed_hash = ?, vector_pushed = ?, author = COALESCE(?, author), server_seq = COALESCE(?, server_seq), updated_at = ?
             WHERE memory_id = ?`, [a.deleted ? null : a.pushedHash, a.vectorPushed ? 1 : 0, a.author ?? null, a.seq ?? null, nowIso, a.memoryId]);
  }
}

/** A row as pulled from the server. */
export interface IncomingRow extends TeamRowFields {
  readonly author: string;
  readonly vector: Uint8Array | null;
  readonly seq: number;
}

export interface ApplyDeps {
  readonly clock: Clock;
  readonly jobs: JobsConfig;
  /** The local embedding model: a pulled vector of this model is used instead of re-embedding. */
  readonly embeddingModelId: string | undefined;
  /** Whether replicas get extraction jobs (extraction runs locally on replicated content). */
  readonly extract: boolean;
}

export interface ApplySummary {
  readonly inserted: number;
  readonly updated: number;
  readonly forgotten: number;
  readonly vectorsReused: number;
  readonly skipped: number;
}

function clampUnit(v: number | null, fallback: number): number {
  return v === null || !Number.isFinite(v) ? fallback : Math.min(1, Math.max(0, v));
}

function safeIso(value: string, fallback: string): string {
  try { return canonicalIso(value); } catch { return fallback; }
}

function useVector(db: SqlWriter, row: IncomingRow, memoryId: string, hash: string, deps: ApplyDeps, nowIso: string, fresh: boolean): boolean {
  if (!row.vector || !row.model_id || row.model_id !== deps.embeddingModelId || !row.dimensions) return false;
  // Either stored layout (float32, or int8 with its scale: models/vectorStore.ts) is accepted as it came.
  if (!decodeVector(row.vector, row.dimensions)) return false;
  if (!fresh) {
    upsertMemoryVector(db, row.model_id, { memoryId, contentHash: hash, vector: blobToVector(row.vector, row.dimensions) }, nowIso);
    return true;
  }
  // A memory inserted just now has no older vectors to drop: store the bytes as they came (a layout
  // decodeVector reads, checked above), one insert and one update per row.
  db.run(`INSERT INTO embeddings (id, content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, 'memory', ?, ?)
          ON CONFLICT(content_hash, model_id) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions`,
  [randomUUID(), hash, row.model_id, row.vector, row.dimensions, memoryId, nowIso]);
  db.run('UPDATE memories SET embedding_model = ? WHERE id = ?', [row.model_id, memoryId]);
  return true;
}

function queueJobs(db: SqlWriter, memoryId: string, embed: boolean, deps: ApplyDeps): void {
  const now = deps.clock.now();
  if (embed) enqueueJob(db, { type: JOB_TYPES.embed, memoryId }, now, randomUUID, deps.jobs);
  if (deps.extract) enqueueJob(db, { type: JOB_TYPES.extract, memoryId }, now, randomUUID, deps.jobs);
}

/**
 * Applies pulled rows in one transaction and moves the cursor past them. Rows at or below the
 * stored cursor were applied already (another window, or a retry after a crash) and are skipped,
 * so a pull is idempotent. The author's own rows coming back are echoes: only a tombstone made on
 * another of the author's machines is acted on.
 */
export function applyPulled(db: SqlWriter, rows: readonly IncomingRow[], deps: ApplyDeps): ApplySummary {
  const nowIso = isoFromMs(deps.clock.now());
  let cursor = readTeamState(db).cursor;
  let inserted = 0, updated = 0, forgotten = 0, vectorsReused = 0, skipped = 0;
  for (const row of rows) {
    if (row.seq <= cursor) { skipped++; continue; }
    cursor = row.seq;
    const share = db.get<{ origin: string; state: string; local_id: string | null }>('SELECT origin, state, local_id FROM team_shares WHERE memory_id = ?', [row.id]);
    if (share?.origin === 'local') {
      db.run('UPDATE team_shares SET author = ?, server_seq = ? WHERE memory_id = ?', [row.author, row.seq, row.id]);
      if (row.deleted && share.state === 'shared') {
        if (db.get('SELECT 1 AS x FROM memories WHERE id = ?', [row.id])) { forgetMemoryInTransaction(db, row.id, deps.clock, 'team'); forgotten++; }
        db.run("UPDATE team_shares SET state = 'tombstone', updated_at = ? WHERE memory_id = ?", [nowIso, row.id]);
        db.run('DELETE FROM team_outbox WHERE memory_id = ?', [row.id]);
      } else skipped++;
      continue;
    }
    if (row.deleted) {
      if (share && share.state !== 'tombstone') {
        if (share.local_id === null && db.get('SELECT 1 AS x FROM memories WHERE id = ?', [row.id])) { forgetMemoryInTransaction(db, row.id, deps.clock, 'team'); forgotten++; }
        db.run("UPDATE team_shares SET state = 'tombstone', server_seq = ?, updated_at = ? WHERE memory_id = ?", [row.seq, nowIso, row.id]);
        db.run('DELETE FROM team_outbox WHERE memory_id = ?', [row.id]);
      } else skipped++;
      continue;
    }
    const content = storageContent(row.content);
    if (!content) { skipped++; continue; }
    const hash = contentHash(content);
    if (share?.state === 'tombstone' && share.local_id === null) {
      // Shared again by its author after a tombstone: the replica comes back under the same id.
      db.run('DELETE FROM team_shares WHERE memory_id = ?', [row.id]);
    } else if (share) {
      if (share.state === 'refused' || share.local_id !== null) { skipped++; continue; }
      const cur = db.get<{ content_hash: string | null }>('SELECT content_hash FROM memories WHERE id = ?', [row.id]);
      if (!cur) { skipped++; continue; }
      db.run('UPDATE team_shares SET author = ?, server_seq = ?, project = ?, updated_at = ? WHERE memory_id = ?', [row.author, row.seq, row.project, nowIso, row.id]);
      if (cur.content_hash !== hash) {
        const normalized = normalizeContent(content);
        db.run('UPDATE memories SET content = ?, normalized_content = ?, content_hash = ?, type = ?, updated_at = ?, update_count = update_count + 1 WHERE id = ?',
          [content, normalized.length > 0 ? normalized : content.toLowerCase(), hash, row.type || 'fact', nowIso, row.id]);
        const reused = useVector(db, row, row.id, hash, deps, nowIso, false);
        if (reused) vectorsReused++;
        queueJobs(db, row.id, !reused, deps);
        updated++;
      } else if (useVector(db, row, row.id, hash, deps, nowIso, false)) {
        vectorsReused++;
      }
      continue;
    }
    const out = insertMemory(db, {
      id: row.id, content, type: row.type || 'fact', project: row.project, sourceType: TEAM_SOURCE_TYPE, sourceId: `team:${row.id}`, who: row.author,
      tags: row.tags ? row.tags.split(',') : undefined, importance: clampUnit(row.importance, 0.5), confidence: clampUnit(row.confidence, 1),
      createdAt: safeIso(row.created_at, nowIso), extractionStatus: deps.extract ? 'pending' : 'none',
    });
    db.run(`INSERT INTO team_shares (memory_id, origin, local_id, author, project, state, pushed_hash, server_seq, updated_at)
            VALUES (?, 'remote', ?, ?, ?, 'shared', ?, ?, ?)`, [row.id, out.duplicate ? out.id : null, row.author, row.project, hash, row.seq, nowIso]);
    if (out.duplicate) { skipped++; continue; }
    const reused = useVector(db, row, row.id, hash, deps, nowIso, true);
    if (reused) vectorsReused++;
    queueJobs(db, row.id, !reused, deps);
    inserted++;
  }
  setStateValue(db, 'cursor', String(cursor));
  return { inserted, updated, forgotten, vectorsReused, skipped };
}

/** Team facts about one memory, for the UI (tree, panel) and `get`. */
export interface MemoryTeamInfo {
  readonly origin: 'local' | 'remote';
  readonly author: string | null;
  readonly state: string;
}

export function memoryTeamInfo(db: SqlReader, memoryId: string): MemoryTeamInfo | undefined {
  const r = db.get<{ origin: 'local' | 'remote'; author: string | null; state: string }>(
    'SELECT origin, author, state FROM team_shares WHERE memory_id = ? OR local_id = ? LIMIT 1', [memoryId, memoryId]);
  return r ? { origin: r.origin, author: r.author, state: r.state } : undefined;
}
