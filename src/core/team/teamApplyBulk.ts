/**
 * The common case of a pull, new replicas, applied as a few multi-row statements per page instead
 * of about seven statements per row (docs/team.md "How replication works"; the per-row cost was
 * 79% of a pull). Rows travel as one JSON array parameter read with `json_each`, as recall
 * bookkeeping does (docs/store.md "Recall bookkeeping"): one statement's SQL and parameters per
 * kind in the store's journal, not one per row. Vector bytes travel hex-encoded (`unhex`).
 *
 * It does exactly what insertMemory + the team_shares row + the reused vector + the jobs of
 * teamApply.ts do for a row with no team_shares row yet, in the same transaction as the cursor:
 *  - a row duplicating a live memory (same source id, else same content hash, in the same
 *    agent/project/scope, as findDuplicate in memory/memoryRecords.ts) or an earlier row of the
 *    same page is not inserted; its team_shares row names the memory it merged into;
 *  - a vector of the local model, in a layout models/vectorStore.ts reads, is stored as it came;
 *  - embed (when no vector was reused) and extraction jobs are queued unless one is pending.
 */
import { randomUUID } from 'node:crypto';
import { isoFromMs } from '../clock';
import { JOB_TYPES } from '../jobs/jobQueue';
import { canonicalIso, contentHash, storageContent } from '../memory/memoryRecords';
import { decodeVector } from '../models/vectorStore';
import type { SqlWriter } from '../store/storeTypes';
import type { ApplyDeps, IncomingRow } from './teamApply';
import { TEAM_SOURCE_TYPE } from './teamState';

/** A row of the page with its local form. */
interface Prepared {
  readonly row: IncomingRow;
  readonly content: string;
  readonly hash: string;
  readonly project: string;
}

export interface BulkSummary {
  readonly inserted: number;
  readonly duplicates: number;
  readonly vectorsReused: number;
}

const clampUnit = (v: number | null, fallback: number): number => (v === null || !Number.isFinite(v) ? fallback : Math.min(1, Math.max(0, v)));
const safeIso = (value: string, fallback: string): string => { try { return canonicalIso(value); } catch { return fallback; } };
const tagList = (tags: string | null): string | null => {
  const t = (tags ?? '').split(',').map((x) => x.trim().toLowerCase()).filter((x) => x);
  return t.length > 0 ? t.join(',') : null;
};

/** The local form of a new replica, or undefined when its content is empty (skipped, as per row). */
export function prepareNew(row: IncomingRow): Prepared | undefined {
  const content = storageContent(row.content);
  if (!content) return undefined;
  return { row, content, hash: contentHash(content), project: row.project };
}

/** Existing live memories the rows duplicate, by row index (findDuplicate's two lookups, for a whole page). */
function existingDuplicates(db: SqlWriter, rows: readonly Prepared[]): Map<number, string> {
  const found = db.all<{ i: number; dup: string | null }>(
    `SELECT j.key AS i, COALESCE(
        (SELECT m.id FROM memories m WHERE m.source_id = j.value ->> '$[0]' AND COALESCE(m.source_type, '') = '${TEAM_SOURCE_TYPE}'
            AND m.is_deleted = 0 AND m.agent_id = 'default' AND COALESCE(m.project, '') = j.value ->> '$[1]' AND COALESCE(m.scope, '__NULL__') = '__NULL__' ORDER BY m.created_at LIMIT 1),
        (SELECT m.id FROM memories m WHERE m.content_hash = j.value ->> '$[2]'
            AND m.is_deleted = 0 AND m.agent_id = 'default' AND COALESCE(m.project, '') = j.value ->> '$[1]' AND COALESCE(m.scope, '__NULL__') = '__NULL__' LIMIT 1)) AS dup
       FROM json_each(?) AS j`,
    [JSON.stringify(rows.map((p) => [`team:${p.row.id}`, p.project, p.hash]))]);
  const out = new Map<number, string>();
  for (const f of found) if (f.dup !== null) out.set(Number(f.i), f.dup);
  return out;
}

/** Inserts new replicas (rows with no team_shares row, not tombstones, with content) in a few statements. */
export function insertNewReplicas(db: SqlWriter, rows: readonly Prepared[], deps: ApplyDeps, nowIso: string): BulkSummary {
  if (rows.length === 0) return { inserted: 0, duplicates: 0, vectorsReused: 0 };
  const existing = existingDuplicates(db, rows);
  const firstOfPage = new Map<string, string>();
  const fresh: Prepared[] = [];
  const shares: unknown[][] = [];
  rows.forEach((p, i) => {
    const key = `${p.project}\u0000${p.hash}`;
    const dup = existing.get(i) ?? firstOfPage.get(key);
    if (dup === undefined) { fresh.push(p); firstOfPage.set(key, p.row.id); }
    shares.push([p.row.id, dup ?? null, p.row.author, p.project, p.hash, p.row.seq]);
  });

  if (fresh.length > 0) {
    db.run(`INSERT INTO memories (id, type, content, content_hash, importance, confidence, source_id, source_type,
              session_key, project, scope, agent_id, who, why, tags, created_at, updated_at, extraction_status, pinned)
            SELECT j.value ->> '$[0]', j.value ->> '$[1]', j.value ->> '$[2]', j.value ->> '$[3]', j.value ->> '$[4]', j.value ->> '$[5]',
                   'team:' || (j.value ->> '$[0]'), '${TEAM_SOURCE_TYPE}', NULL, j.value ->> '$[6]', NULL, 'default', j.value ->> '$[7]', NULL, j.value ->> '$[8]',
                   j.value ->> '$[9]', j.value ->> '$[9]', ?, 0
              FROM json_each(?) AS j`,
    [deps.extract ? 'pending' : 'none', JSON.stringify(fresh.map((p) => [
      p.row.id, p.row.type || 'fact', p.content, p.hash, clampUnit(p.row.importance, 0.5), clampUnit(p.row.confidence, 1),
      p.project, p.row.author, tagList(p.row.tags), safeIso(p.row.created_at, nowIso),
    ]))]);
  }
  db.run(`INSERT INTO team_shares (memory_id, origin, local_id, author, project, state, pushed_hash, server_seq, updated_at)
          SELECT j.value ->> '$[0]', 'remote', j.value ->> '$[1]', j.value ->> '$[2]', j.value ->> '$[3]', 'shared', j.value ->> '$[4]', j.value ->> '$[5]', ?
            FROM json_each(?) AS j`, [nowIso, JSON.stringify(shares)]);

  // Vectors of the local model, stored as they came (either layout decodeVector reads).
  const withVector = fresh.filter((p) => p.row.vector !== null && p.row.model_id !== null && p.row.model_id === deps.embeddingModelId
    && p.row.dimensions !== null && p.row.dimensions > 0 && decodeVector(p.row.vector, p.row.dimensions) !== undefined);
  if (withVector.length > 0) {
    db.run(`INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at)
            SELECT j.value ->> '$[0]', ?, unhex(j.value ->> '$[1]'), j.value ->> '$[2]', 'memory', j.value ->> '$[3]', ?
              FROM json_each(?) AS j WHERE true
            ON CONFLICT(content_hash, model_id) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions`,
    [deps.embeddingModelId as string, nowIso, JSON.stringify(withVector.map((p) => [
      p.hash, Buffer.from((p.row.vector as Uint8Array).buffer, (p.row.vector as Uint8Array).byteOffset, (p.row.vector as Uint8Array).byteLength).toString('hex'),
      p.row.dimensions, p.row.id,
    ]))]);
    db.run('UPDATE memories SET embedding_model = ? WHERE id IN (SELECT value FROM json_each(?))', [deps.embeddingModelId as string, JSON.stringify(withVector.map((p) => p.row.id))]);
  }

  // Jobs, as enqueueJob queues them (none when one is pending or leased for the memory).
  const reused = new Set(withVector.map((p) => p.row.id));
  const jobs: string[][] = [];
  for (const p of fresh) {
    if (!reused.has(p.row.id)) jobs.push([randomUUID(), p.row.id, JOB_TYPES.embed]);
    if (deps.extract) jobs.push([randomUUID(), p.row.id, JOB_TYPES.extract]);
  }
  if (jobs.length > 0) {
    const jobTime = isoFromMs(deps.clock.now());
    db.run(`INSERT INTO memory_jobs (id, memory_id, job_type, status, payload, attempts, max_attempts, created_at, updated_at)
            SELECT j.value ->> '$[0]', j.value ->> '$[1]', j.value ->> '$[2]', 'pending', NULL, 0, ?, ?, ?
              FROM json_each(?) AS j
             WHERE NOT EXISTS (SELECT 1 FROM memory_jobs q WHERE q.job_type = j.value ->> '$[2]' AND q.memory_id = j.value ->> '$[1]' AND q.status IN ('pending', 'leased'))`,
    [deps.jobs.maxAttempts, jobTime, jobTime, JSON.stringify(jobs)]);
  }
  return { inserted: fresh.length, duplicates: rows.length - fresh.length, vectorsReused: withVector.length };
}
