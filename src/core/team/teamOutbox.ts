/**
 * The push side of team memory (docs/team.md "How replication works"): Share with Team / Stop
 * Sharing, the scan that queues what a sync must send, the durable outbox (`team_outbox`, store
 * migration 24) read with every text field redacted again, and the acknowledgements that empty it.
 * At-least-once: an entry leaves the outbox only after the server committed it, and only if no
 * newer change re-queued it meanwhile.
 */
import type { RedactionConfig } from '../config/redactionConfig';
import { MemoryError } from '../errors';
import { contentHash } from '../memory/memoryRecords';
import { redactSecrets } from '../memory/redaction';
import { isoFromMs } from '../clock';
import type { MemoryStore, SqlReader, SqlWriter } from '../store/storeTypes';
import { readTeamState, setStateValue } from './teamState';
import { sqlPlaceholders } from '../store/sqlPlaceholders';

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

export interface ScanPlan {
  readonly fresh: readonly { id: string; project: string }[];
  readonly changed: readonly string[];
  readonly gone: readonly string[];
}

/** team_state keys of the push scan (teamScanMigration.ts): the project list and time the last full pass covered. */
export const SCAN_PROJECTS_KEY = 'scan_projects';
export const SCAN_FULL_AT_KEY = 'scan_full_at';
/** The safety-net full pass runs when the last one is older than this (docs/team.md "The push scan"). */
export const FULL_SCAN_INTERVAL_MS = 24 * 60 * 60 * 1000;

export type ScanMode = 'full' | 'dirty';

/**
 * Which pass the next push needs: 'full' when the shared projects differ from those the last full
 * pass covered (a newly shared project's memories were never marked), when none ran yet (a store
 * from before migration 29, or never synced), or when the last one is older than
 * FULL_SCAN_INTERVAL_MS; 'dirty' otherwise (only the memories team_dirty names).
 */
export function scanMode(db: SqlReader, projects: readonly string[], nowMs: number): ScanMode {
  const covered = db.get<{ value: string }>('SELECT value FROM team_state WHERE key = ?', [SCAN_PROJECTS_KEY])?.value;
  const at = Date.parse(db.get<{ value: string }>('SELECT value FROM team_state WHERE key = ?', [SCAN_FULL_AT_KEY])?.value ?? '');
  if (covered !== JSON.stringify(projects) || !Number.isFinite(at)) return 'full';
  return nowMs - at >= FULL_SCAN_INTERVAL_MS || nowMs < at ? 'full' : 'dirty';
}

export function dirtyCount(db: SqlReader): number {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_dirty')?.n ?? 0;
}

/**
 * What the outbox lacks: memories of shared projects never queued, shared memories whose text
 * or vector changed since the server acknowledged them, and shared memories forgotten or deleted
 * here. A read, so an idle sync costs no write. `mode` 'dirty' asks the same three questions of
 * the memories team_dirty names only (the triggers of migration 29 mark every memory whose answer
 * may have changed), so its cost follows what changed, not the size of the store; 'full' reads
 * every memory of the shared projects.
 */
export function planScan(db: SqlReader, projects: readonly string[], mode: ScanMode = 'full'): ScanPlan {
  if (projects.length === 0) return { fresh: [], changed: [], gone: [] };
  const p = sqlPlaceholders(projects.length);
  const dirty = mode === 'dirty';
  // CROSS JOIN keeps team_dirty the outer loop (SQLite never reorders it): without it the planner
  // may walk the project index of memories and probe team_dirty, which costs the store's size again.
  const fresh = db.all<{ id: string; project: string }>(
    `SELECT m.id, m.project FROM ${dirty ? 'team_dirty d CROSS JOIN memories m ON m.id = d.memory_id' : 'memories m'}
      WHERE m.project IN (${p}) AND m.is_deleted = 0
        AND NOT EXISTS (SELECT 1 FROM team_shares t WHERE t.memory_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM team_shares t WHERE t.local_id = m.id)`, [...projects]);
  const changed = db.all<{ id: string }>(
    `SELECT t.memory_id AS id FROM ${dirty ? 'team_dirty d CROSS JOIN team_shares t ON t.memory_id = d.memory_id CROSS' : 'team_shares t'} JOIN memories m ON m.id = t.memory_id
      WHERE t.origin = 'local' AND t.state = 'shared' AND t.project IN (${p}) AND m.is_deleted = 0
        AND NOT EXISTS (SELECT 1 FROM team_outbox o WHERE o.memory_id = t.memory_id)
        AND (t.pushed_hash IS NULL OR t.pushed_hash <> m.content_hash
             OR (t.vector_pushed = 0 AND EXISTS (SELECT 1 FROM embeddings e WHERE e.source_type = 'memory' AND e.source_id = m.id AND e.content_hash = m.content_hash)))`, [...projects]).map((r) => r.id);
  const goneWhere = `t.state = 'shared' AND t.project IN (${p}) AND (m.id IS NULL OR m.is_deleted = 1)`;
  const goneFrom = 'LEFT JOIN memories m ON m.id = COALESCE(t.local_id, t.memory_id)';
  // A share is gone when the memory it names (local_id when it merged into one here) is; the mark
  // names that memory, so the dirty form looks the share up by either column.
  const gone = (dirty
    ? db.all<{ id: string }>(
      `SELECT t.memory_id AS id FROM team_dirty d CROSS JOIN team_shares t ON t.memory_id = d.memory_id ${goneFrom} WHERE ${goneWhere}
       UNION
       SELECT t.memory_id AS id FROM team_dirty d CROSS JOIN team_shares t ON t.local_id = d.memory_id ${goneFrom} WHERE ${goneWhere}
       ORDER BY 1`, [...projects, ...projects])
    : db.all<{ id: string }>(`SELECT t.memory_id AS id FROM team_shares t ${goneFrom} WHERE ${goneWhere}`, [...projects])).map((r) => r.id);
  return { fresh, changed, gone };
}

export function planIsEmpty(plan: ScanPlan): boolean {
  return plan.fresh.length === 0 && plan.changed.length === 0 && plan.gone.length === 0;
}

/**
 * Queues what planScan finds (re-planned inside the write transaction, so it is current), then
 * empties team_dirty in the same transaction: every mark was read by this plan, and a change
 * committed after it marks again. A full pass records the projects and time it covered.
 */
export function applyScan(db: SqlWriter, projects: readonly string[], nowIso: string, mode: ScanMode = 'full'): number {
  const plan = planScan(db, projects, mode);
  for (const f of plan.fresh) {
    db.run(`INSERT INTO team_shares (memory_id, origin, project, state, updated_at) VALUES (?, 'local', ?, 'shared', ?)`, [f.id, f.project, nowIso]);
    upsertOutbox(db, f.id, 'upsert', nowIso);
  }
  for (const id of plan.changed) upsertOutbox(db, id, 'upsert', nowIso);
  for (const id of plan.gone) {
    db.run("UPDATE team_shares SET state = 'tombstone', updated_at = ? WHERE memory_id = ?", [nowIso, id]);
    upsertOutbox(db, id, 'tombstone', nowIso);
  }
  db.run('DELETE FROM team_dirty');
  if (mode === 'full') {
    setStateValue(db, SCAN_PROJECTS_KEY, JSON.stringify(projects));
    setStateValue(db, SCAN_FULL_AT_KEY, nowIso);
  }
  return plan.fresh.length + plan.changed.length + plan.gone.length;
}

/**
 * The scan step of a push: reads which pass is due; writes (queues, empties team_dirty, records a
 * full pass) only when a memory is marked or a full pass is due, so an idle sync with nothing
 * marked costs a few team_state reads, a count of an empty team_dirty, and no write.
 * `full` forces the full pass (`agent-memory team sync --full`).
 */
export async function scanForPush(store: MemoryStore, nowMs: number, full = false): Promise<number> {
  const todo = store.read((db) => {
    const projects = readTeamState(db).sharedProjects;
    if (projects.length === 0) return { write: dirtyCount(db) > 0 };
    const mode: ScanMode = full ? 'full' : scanMode(db, projects, nowMs);
    // With nothing marked, a dirty pass has nothing to read: no plan, no write.
    return { write: mode === 'full' || dirtyCount(db) > 0 };
  });
  if (!todo.write) return 0;
  return store.write('team.scan', (db) => {
    const projects = readTeamState(db).sharedProjects;
    const mode: ScanMode = full ? 'full' : scanMode(db, projects, nowMs);
    return applyScan(db, projects, isoFromMs(nowMs), mode);
  });
}

export function outboxSize(db: SqlReader): number {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_outbox')?.n ?? 0;
}

/** The fields a shared memory has on the server, whichever way it travels. */
export interface TeamRowFields {
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
  /**
   * The local `content_hash` the row was made from (null for a tombstone): what the push scan
   * compares with the memory's hash. The row's own hash differs from it when push-time redaction
   * changed the text, and acknowledging that one made the memory look changed on every scan.
   */
  readonly localHash: string | null;
  /**
   * Nothing more to send for this text's vector: it travelled, or it is withheld because redaction
   * changed the text (a vector of the unredacted text must not leave the machine).
   */
  readonly vectorSettled: boolean;
}

/** What the store records once the server committed `item` (`server`: the row it returned, if any). */
export function pushAck(item: OutboxItem, server?: { readonly author: string; readonly seq: number }): PushAck {
  return {
    memoryId: item.memoryId, version: item.version, pushedHash: item.localHash ?? item.row.content_hash,
    vectorPushed: item.vectorSettled, deleted: item.row.deleted, ...(server ? { author: server.author, seq: server.seq } : {}),
  };
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
      out.push({ memoryId: e.memory_id, version: e.version, localHash: null, vectorSettled: false, row: { id: e.memory_id, project: project || '(none)', type: 'fact', content: '', content_hash: '', tags: null, importance: null, confidence: null, created_at: '1970-01-01T00:00:00.000Z', deleted: true, model_id: null, dimensions: null, vector: null } });
      continue;
    }
    const content = redactSecrets(m.content, redaction).text;
    const hash = content === m.content ? m.content_hash : contentHash(content);
    const vec = hash === m.content_hash
      ? db.get<{ model_id: string; vector: Uint8Array; dimensions: number }>(
        "SELECT model_id, vector, dimensions FROM embeddings WHERE source_type = 'memory' AND source_id = ? AND content_hash = ? ORDER BY created_at DESC LIMIT 1", [e.memory_id, hash])
      : undefined;
    out.push({
      memoryId: e.memory_id, version: e.version, localHash: m.content_hash, vectorSettled: vec !== undefined || hash !== m.content_hash,
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
