/**
 * The conflicts the duplicates-and-conflicts scan proposed, kept in `memory_conflicts` (migration
 * 31) so a person can resolve them later from the maintenance report or the Knowledge panel
 * (docs/maintenance.md, "Conflicts"). A pair a person answered is never proposed again; a
 * "both are true" answer also covers *pairs like it*: the same two statements again (a re-captured
 * or imported copy of either memory, in either order), recognised by a hash of each statement's
 * normalised text (case, spacing and punctuation do not matter). No memory text is stored here.
 */
import { createHash } from 'node:crypto';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { MEMORY_CLAIM_GROUP } from '../graph/memorySupersessionWrites';

export type ConflictChoice = 'keep-newer' | 'keep-older' | 'both-true';
export const CONFLICT_CHOICES: readonly ConflictChoice[] = ['keep-newer', 'keep-older', 'both-true'];

/** A 128-bit hash of a statement's normalised text: equal for the same statement written again. */
export function statementKey(content: string): string {
  const norm = content.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return createHash('sha256').update(norm).digest('hex').slice(0, 32);
}

export interface ProposedPair {
  readonly olderId: string;
  readonly newerId: string;
  readonly reason: string;
  readonly detail: string;
  readonly confidence: number;
}

interface KeyedPair { readonly olderId: string; readonly newerId: string; readonly olderKey: string; readonly newerKey: string }

/**
 * Whether a person already answered this pair (any answer), or answered "both are true" for the
 * same two statements (either order). Settled pairs are not proposed again.
 */
export function isSettled(db: SqlReader, p: KeyedPair): boolean {
  const same = db.get<{ x: number }>(
    `SELECT 1 AS x FROM memory_conflicts WHERE status <> 'open'
       AND ((older_id = ? AND newer_id = ?) OR (older_id = ? AND newer_id = ?)) LIMIT 1`, [p.olderId, p.newerId, p.newerId, p.olderId]);
  if (same) return true;
  const alike = db.get<{ x: number }>(
    `SELECT 1 AS x FROM memory_conflicts WHERE status = 'both-true'
       AND ((older_key = ? AND newer_key = ?) OR (older_key = ? AND newer_key = ?)) LIMIT 1`, [p.olderKey, p.newerKey, p.newerKey, p.olderKey]);
  return alike !== undefined;
}

const contentOf = (db: SqlReader, id: string): string | undefined => db.get<{ content: string }>('SELECT content FROM memories WHERE id = ?', [id])?.content;

/** Whether the memory pair is settled (reads both memories' texts for the "alike" rule). */
export function isPairSettled(db: SqlReader, olderId: string, newerId: string): boolean {
  const a = contentOf(db, olderId);
  const b = contentOf(db, newerId);
  if (a === undefined || b === undefined) return false;
  return isSettled(db, { olderId, newerId, olderKey: statementKey(a), newerKey: statementKey(b) });
}

/**
 * Keeps the proposals of one scan: new pairs are stored as open, pairs already stored keep their
 * state. Returns the proposals that are still to be answered (settled ones are left out).
 */
export function recordProposals<P extends ProposedPair>(db: SqlWriter, proposals: readonly P[], nowIso: string, newId: () => string): P[] {
  const open: P[] = [];
  for (const p of proposals) {
    const a = contentOf(db, p.olderId);
    const b = contentOf(db, p.newerId);
    if (a === undefined || b === undefined) continue;
    const keyed = { olderId: p.olderId, newerId: p.newerId, olderKey: statementKey(a), newerKey: statementKey(b) };
    if (isSettled(db, keyed)) continue;
    db.run(`INSERT INTO memory_conflicts (id, older_id, newer_id, reason, detail, confidence, older_key, newer_key, status, found_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?) ON CONFLICT(older_id, newer_id) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, confidence = excluded.confidence`,
    [newId(), p.olderId, p.newerId, p.reason, p.detail.slice(0, 300), p.confidence, keyed.olderKey, keyed.newerKey, nowIso]);
    open.push(p);
  }
  return open;
}

/** Which of the two memories recall treats as current now. */
export type ConflictCurrent = 'newer' | 'older' | 'both';

export interface ConflictSide { readonly id: string; readonly content: string; readonly createdAt: string }

export interface ConflictRecord {
  readonly id: string;
  readonly older: ConflictSide;
  readonly newer: ConflictSide;
  /** The detector's reason in words ("decision change", "value change", "contradiction"). */
  readonly reason: string;
  readonly detail: string;
  readonly status: 'open' | ConflictChoice;
  readonly current: ConflictCurrent;
  readonly foundAt: string;
  readonly resolvedAt: string | null;
}

function claimStatus(db: SqlReader, memoryId: string): string | undefined {
  return db.get<{ status: string }>(
    'SELECT status FROM entity_attributes WHERE memory_id = ? AND entity_id IS NULL AND aspect_id IS NULL AND group_key = ? ORDER BY created_at LIMIT 1',
    [memoryId, MEMORY_CLAIM_GROUP])?.status;
}

/** Which memory is current: the one whose whole-memory claim is not superseded. */
export function currentSide(db: SqlReader, olderId: string, newerId: string): ConflictCurrent {
  if (claimStatus(db, olderId) === 'superseded') return 'newer';
  if (claimStatus(db, newerId) === 'superseded') return 'older';
  return 'both';
}

type Row = { id: string; older_id: string; newer_id: string; reason: string; detail: string | null; status: ConflictRecord['status']; found_at: string; resolved_at: string | null;
  oc: string; oa: string; nc: string; na: string };

const SELECT = `SELECT c.id, c.older_id, c.newer_id, c.reason, c.detail, c.status, c.found_at, c.resolved_at,
    o.content AS oc, o.created_at AS oa, n.content AS nc, n.created_at AS na
  FROM memory_conflicts c JOIN memories o ON o.id = c.older_id AND o.is_deleted = 0 JOIN memories n ON n.id = c.newer_id AND n.is_deleted = 0`;

function toRecord(db: SqlReader, r: Row): ConflictRecord {
  return {
    id: r.id, older: { id: r.older_id, content: r.oc, createdAt: r.oa }, newer: { id: r.newer_id, content: r.nc, createdAt: r.na },
    reason: r.reason.replace(/_/g, ' '), detail: r.detail ?? '', status: r.status, current: currentSide(db, r.older_id, r.newer_id), foundAt: r.found_at, resolvedAt: r.resolved_at,
  };
}

/** Conflicts still to be answered whose two memories are both live, newest proposal first. */
export function openConflicts(db: SqlReader, limit = 100): ConflictRecord[] {
  return db.all<Row>(`${SELECT} WHERE c.status = 'open' ORDER BY c.found_at DESC, n.created_at DESC LIMIT ?`, [limit]).map((r) => toRecord(db, r));
}

export function conflictById(db: SqlReader, id: string): ConflictRecord | undefined {
  const r = db.get<Row>(`${SELECT} WHERE c.id = ?`, [id]);
  return r ? toRecord(db, r) : undefined;
}

/** The stored conflict of a memory pair (either order), or undefined. */
export function conflictForPair(db: SqlReader, olderId: string, newerId: string): ConflictRecord | undefined {
  const r = db.get<Row>(`${SELECT} WHERE (c.older_id = ? AND c.newer_id = ?) OR (c.older_id = ? AND c.newer_id = ?)`, [olderId, newerId, newerId, olderId]);
  return r ? toRecord(db, r) : undefined;
}
