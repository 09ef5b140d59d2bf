/**
 * The pull side of team memory (docs/team.md "How replication works"): rows pulled from the server
 * applied to the local replica in one store transaction with the cursor, idempotently (rows at or
 * below the cursor are skipped), reusing a pulled vector when the local model is the same; and the
 * team facts of one memory for `get` and the UI.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import type { JobsConfig } from '../config/jobsConfig';
import { enqueueJob, JOB_TYPES } from '../jobs/jobQueue';
import { forgetMemoryInTransaction } from '../memory/forget';
import { canonicalIso, contentHash, insertMemory, storageContent } from '../memory/memoryRecords';
import { blobToVector, upsertMemoryVector, decodeVector } from '../models/vectorStore';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import type { TeamRowFields } from './teamOutbox';
import { insertNewReplicas, prepareNew } from './teamApplyBulk';
import { readTeamState, setStateValue, TEAM_SOURCE_TYPE } from './teamState';

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
  /**
   * A partial replica (team.replica 'partial', docs/team.md "Partial replicas"): rows this store
   * does not hold are not inserted, except those of `ownRole` (one's own memories from another
   * machine); changes and tombstones still reach the rows it holds, and the cursor still advances.
   */
  readonly partial?: boolean;
  readonly ownRole?: string;
}

export interface ApplySummary {
  readonly inserted: number;
  readonly updated: number;
  readonly forgotten: number;
  readonly vectorsReused: number;
  readonly skipped: number;
  /** Partial replica: others' rows the store does not hold, passed over (the cursor moved past them). */
  readonly notHeld: number;
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
  db.run(`INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, 'memory', ?, ?)
          ON CONFLICT(content_hash, model_id) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions`,
  [hash, row.model_id, row.vector, row.dimensions, memoryId, nowIso]);
  db.run('UPDATE memories SET embedding_model = ? WHERE id = ?', [row.model_id, memoryId]);
  return true;
}

function queueJobs(db: SqlWriter, memoryId: string, embed: boolean, deps: ApplyDeps): void {
  const now = deps.clock.now();
  if (embed) enqueueJob(db, { type: JOB_TYPES.embed, memoryId }, now, randomUUID, deps.jobs);
  if (deps.extract) enqueueJob(db, { type: JOB_TYPES.extract, memoryId }, now, randomUUID, deps.jobs);
}

interface ShareRow { memory_id: string; origin: string; state: string; local_id: string | null }

interface Counts { inserted: number; updated: number; forgotten: number; vectorsReused: number; skipped: number; notHeld: number }

/** Whether a partial replica takes a row it does not hold yet: only its own role's. */
const takesNew = (row: IncomingRow, deps: ApplyDeps): boolean => deps.partial !== true || (deps.ownRole !== undefined && row.author === deps.ownRole);

/**
 * Applies pulled rows in one transaction and moves the cursor past them. Rows at or below the
 * stored cursor were applied already (another window, or a retry after a crash) and are skipped,
 * so a pull is idempotent. The author's own rows coming back are echoes: only a tombstone made on
 * another of the author's machines is acted on. New replicas (no team_shares row yet), the bulk
 * of a fresh client's pull, go in a few multi-row statements (teamApplyBulk.ts); the others
 * (updates, tombstones, echoes) one by one, before them.
 */
export function applyPulled(db: SqlWriter, rows: readonly IncomingRow[], deps: ApplyDeps): ApplySummary {
  const nowIso = isoFromMs(deps.clock.now());
  let cursor = readTeamState(db).cursor;
  const counts: Counts = { inserted: 0, updated: 0, forgotten: 0, vectorsReused: 0, skipped: 0, notHeld: 0 };
  const live: IncomingRow[] = [];
  for (const row of rows) {
    if (row.seq <= cursor) { counts.skipped++; continue; }
    cursor = row.seq;
    live.push(row);
  }
  const shares = new Map<string, ShareRow>();
  if (live.length > 0) {
    for (const s of db.all<ShareRow>('SELECT memory_id, origin, state, local_id FROM team_shares WHERE memory_id IN (SELECT value FROM json_each(?))', [JSON.stringify(live.map((r) => r.id))])) shares.set(s.memory_id, s);
  }
  const fresh: NonNullable<ReturnType<typeof prepareNew>>[] = [];
  for (const row of live) {
    const share = shares.get(row.id);
    if (!share && !row.deleted) {
      if (!takesNew(row, deps)) { counts.notHeld++; continue; }
      const p = prepareNew(row);
      if (p) fresh.push(p); else counts.skipped++;
      continue;
    }
    applyOne(db, row, share, deps, nowIso, counts);
  }
  const bulk = insertNewReplicas(db, fresh, deps, nowIso);
  counts.inserted += bulk.inserted;
  counts.skipped += bulk.duplicates;
  counts.vectorsReused += bulk.vectorsReused;
  setStateValue(db, 'cursor', String(cursor));
  return counts;
}

/** One row that is not a new replica: an echo, a tombstone, or a change to a replica this store holds. */
function applyOne(db: SqlWriter, row: IncomingRow, share: ShareRow | undefined, deps: ApplyDeps, nowIso: string, counts: Counts): void {
  if (share?.origin === 'local') {
    db.run('UPDATE team_shares SET author = ?, server_seq = ? WHERE memory_id = ?', [row.author, row.seq, row.id]);
    if (row.deleted && share.state === 'shared') {
      if (db.get('SELECT 1 AS x FROM memories WHERE id = ?', [row.id])) { forgetMemoryInTransaction(db, row.id, deps.clock, 'team'); counts.forgotten++; }
      db.run("UPDATE team_shares SET state = 'tombstone', updated_at = ? WHERE memory_id = ?", [nowIso, row.id]);
      db.run('DELETE FROM team_outbox WHERE memory_id = ?', [row.id]);
    } else counts.skipped++;
    return;
  }
  if (row.deleted) {
    if (share && share.state !== 'tombstone') {
      if (share.local_id === null && db.get('SELECT 1 AS x FROM memories WHERE id = ?', [row.id])) { forgetMemoryInTransaction(db, row.id, deps.clock, 'team'); counts.forgotten++; }
      db.run("UPDATE team_shares SET state = 'tombstone', server_seq = ?, updated_at = ? WHERE memory_id = ?", [row.seq, nowIso, row.id]);
      db.run('DELETE FROM team_outbox WHERE memory_id = ?', [row.id]);
    } else counts.skipped++;
    return;
  }
  const content = storageContent(row.content);
  if (!content) { counts.skipped++; return; }
  const hash = contentHash(content);
  if (share?.state === 'tombstone' && share.local_id === null) {
    // A partial replica no longer holds it: it comes back only when a recall finds it again.
    if (!takesNew(row, deps)) { counts.notHeld++; return; }
    // Shared again by its author after a tombstone: the replica comes back under the same id.
    db.run('DELETE FROM team_shares WHERE memory_id = ?', [row.id]);
    insertOne(db, row, content, hash, deps, nowIso, counts);
    return;
  }
  if (!share) { insertOne(db, row, content, hash, deps, nowIso, counts); return; }
  if (share.state === 'refused' || share.local_id !== null) { counts.skipped++; return; }
  const cur = db.get<{ content_hash: string | null }>('SELECT content_hash FROM memories WHERE id = ?', [row.id]);
  if (!cur) { counts.skipped++; return; }
  db.run('UPDATE team_shares SET author = ?, server_seq = ?, project = ?, updated_at = ? WHERE memory_id = ?', [row.author, row.seq, row.project, nowIso, row.id]);
  if (cur.content_hash !== hash) {
    db.run('UPDATE memories SET content = ?, content_hash = ?, type = ?, updated_at = ?, update_count = update_count + 1 WHERE id = ?',
      [content, hash, row.type || 'fact', nowIso, row.id]);
    const reused = useVector(db, row, row.id, hash, deps, nowIso, false);
    if (reused) counts.vectorsReused++;
    queueJobs(db, row.id, !reused, deps);
    counts.updated++;
  } else if (useVector(db, row, row.id, hash, deps, nowIso, false)) {
    counts.vectorsReused++;
  }
}

/**
 * Replicates rows a recall found on the team server (partial replicas, teamServerRecall.ts) as a
 * pull would insert them: the same memory row, team_shares row (with the row's server sequence),
 * reused vector and jobs, so extraction, the graph, the tree and later recalls see them and later
 * changes and tombstones pulled by the cursor reach them. The cursor is not moved. A row the store
 * already holds (a pull or another recall got there first) or a tombstone is left alone.
 */
export function applyRecalled(db: SqlWriter, rows: readonly IncomingRow[], deps: ApplyDeps): number {
  if (rows.length === 0) return 0;
  const nowIso = isoFromMs(deps.clock.now());
  const held = new Set(db.all<{ memory_id: string }>('SELECT memory_id FROM team_shares WHERE memory_id IN (SELECT value FROM json_each(?))', [JSON.stringify(rows.map((r) => r.id))]).map((r) => r.memory_id));
  const fresh: NonNullable<ReturnType<typeof prepareNew>>[] = [];
  for (const row of rows) {
    if (row.deleted || held.has(row.id)) continue;
    held.add(row.id);
    const p = prepareNew(row);
    if (p) fresh.push(p);
  }
  return insertNewReplicas(db, fresh, deps, nowIso).inserted;
}

/** A replica inserted one by one (a row shared again after its tombstone). */
function insertOne(db: SqlWriter, row: IncomingRow, content: string, hash: string, deps: ApplyDeps, nowIso: string, counts: Counts): void {
  const out = insertMemory(db, {
    id: row.id, content, type: row.type || 'fact', project: row.project, sourceType: TEAM_SOURCE_TYPE, sourceId: `team:${row.id}`, who: row.author,
    tags: row.tags ? row.tags.split(',') : undefined, importance: clampUnit(row.importance, 0.5), confidence: clampUnit(row.confidence, 1),
    createdAt: safeIso(row.created_at, nowIso), extractionStatus: deps.extract ? 'pending' : 'none',
  });
  db.run(`INSERT INTO team_shares (memory_id, origin, local_id, author, project, state, pushed_hash, server_seq, updated_at)
          VALUES (?, 'remote', ?, ?, ?, 'shared', ?, ?, ?)`, [row.id, out.duplicate ? out.id : null, row.author, row.project, hash, row.seq, nowIso]);
  if (out.duplicate) { counts.skipped++; return; }
  const reused = useVector(db, row, row.id, hash, deps, nowIso, true);
  if (reused) counts.vectorsReused++;
  queueJobs(db, row.id, !reused, deps);
  counts.inserted++;
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
