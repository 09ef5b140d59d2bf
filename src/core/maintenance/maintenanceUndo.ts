/**
 * The undo log of maintenance (docs/maintenance.md, "Nothing changes silently"): every entity merge
 * maintenance makes is written to `maintenance_changes` (migration 31) with the rows it changed as
 * they were before, and can be undone for UNDO_WINDOW_DAYS. Undoing a merge brings the merged
 * entity back with its id, name, type, mentions, aspects, attributes and relations, and gives the
 * kept entity back its own name, type and pin. The undo is audited in graph_ops (`entity_unmerge`).
 */
import { MemoryError } from '../errors';
import { recordGraphOp } from '../graph/graphAudit';
import type { GraphWriteContext } from '../graph/graphWriteTypes';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/** How long a maintenance change can be undone. */
export const UNDO_WINDOW_DAYS = 7;
export const UNDO_WINDOW_MS = UNDO_WINDOW_DAYS * 86_400_000;
/** Log rows are kept this long after their undo window closed (for the report), then dropped. */
export const UNDO_LOG_KEPT_MS = 30 * 86_400_000;

const ENTITY_COLUMNS = ['id', 'name', 'canonical_name', 'entity_type', 'description', 'mentions', 'pinned', 'pinned_at', 'scope', 'agent_id', 'status', 'created_at', 'updated_at'] as const;
const RELATION_COLUMNS = ['id', 'source_entity_id', 'target_entity_id', 'relation_type', 'strength', 'confidence', 'mentions', 'metadata', 'created_at', 'updated_at'] as const;
const ASPECT_COLUMNS = ['id', 'entity_id', 'agent_id', 'name', 'canonical_name', 'weight', 'status', 'created_at', 'updated_at'] as const;

type Cell = string | number | null;
type RowOf = Record<string, Cell>;

/** The rows a merge changes, as they were before it. */
export interface MergeSnapshot {
  readonly keep: RowOf;
  readonly drop: RowOf;
  readonly mentions: readonly { memory_id: string; mention_text: string | null; confidence: number; keepHadIt: boolean }[];
  readonly relations: readonly RowOf[];
  /** Relations of the merged entity the merge folded into an existing one of the kept entity. */
  readonly joined: readonly { readonly id: string; readonly into: string; readonly mentions: number }[];
  readonly aspects: readonly RowOf[];
  readonly attributes: readonly { readonly id: string; readonly aspect_id: string | null }[];
  readonly predictorIds: readonly string[];
}

const cols = (c: readonly string[]): string => c.join(', ');

/** Reads what merging `mergeId` into `keepId` will change (call right before the merge). */
export function snapshotMerge(db: SqlReader, keepId: string, mergeId: string): MergeSnapshot {
  const entity = (id: string): RowOf => {
    const r = db.get<RowOf>(`SELECT ${cols(ENTITY_COLUMNS)} FROM entities WHERE id = ?`, [id]);
    if (!r) throw new MemoryError('E_NOT_FOUND', `No entity with id '${id}'.`);
    return r;
  };
  const keepMemories = new Set(db.all<{ memory_id: string }>('SELECT memory_id FROM memory_entity_mentions WHERE entity_id = ?', [keepId]).map((r) => r.memory_id));
  const mentions = db.all<{ memory_id: string; mention_text: string | null; confidence: number }>(
    'SELECT memory_id, mention_text, confidence FROM memory_entity_mentions WHERE entity_id = ?', [mergeId]).map((m) => ({ ...m, keepHadIt: keepMemories.has(m.memory_id) }));
  const relations = db.all<RowOf>(`SELECT ${cols(RELATION_COLUMNS)} FROM relations WHERE source_entity_id = ? OR target_entity_id = ?`, [mergeId, mergeId]);
  const joined: { id: string; into: string; mentions: number }[] = [];
  for (const r of relations) {
    // The same test mergeEntityInto makes: a relation that would exist twice is folded into the other.
    const src = r.source_entity_id === mergeId ? keepId : r.source_entity_id;
    const dst = r.target_entity_id === mergeId ? keepId : r.target_entity_id;
    if (src === dst) continue;
    const existing = db.get<{ id: string }>('SELECT id FROM relations WHERE source_entity_id = ? AND target_entity_id = ? AND relation_type = ? AND id <> ?', [src, dst, r.relation_type, r.id]);
    if (existing) joined.push({ id: r.id as string, into: existing.id, mentions: Number(r.mentions) });
  }
  return {
    keep: entity(keepId), drop: entity(mergeId), mentions, relations, joined,
    aspects: db.all<RowOf>(`SELECT ${cols(ASPECT_COLUMNS)} FROM entity_aspects WHERE entity_id = ?`, [mergeId]),
    attributes: db.all<{ id: string; aspect_id: string | null }>('SELECT id, aspect_id FROM entity_attributes WHERE entity_id = ?', [mergeId]),
    predictorIds: db.all<{ id: string }>('SELECT id FROM predictor_comparisons WHERE focal_entity_id = ?', [mergeId]).map((r) => r.id),
  };
}

export interface ChangeInput {
  readonly runId: string | null;
  readonly task: string;
  readonly kind: 'entity_merge';
  /** What changed, by name ("shelf.server"). */
  readonly subject: string;
  /** Into what ("shelf/server.py"). */
  readonly target: string | null;
  readonly why: string;
  readonly undo: MergeSnapshot;
}

/** Writes one change to the undo log (and drops rows long past their window). Returns its id. */
export function recordMaintenanceChange(db: SqlWriter, ctx: GraphWriteContext, nowMs: number, c: ChangeInput): string {
  const id = ctx.newId();
  db.run('DELETE FROM maintenance_changes WHERE undo_until < ?', [new Date(nowMs - UNDO_LOG_KEPT_MS).toISOString()]);
  db.run(`INSERT INTO maintenance_changes (id, run_id, task, kind, subject, target, why, undo, created_at, undo_until)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  [id, c.runId, c.task, c.kind, c.subject, c.target, c.why, JSON.stringify(c.undo), new Date(nowMs).toISOString(), new Date(nowMs + UNDO_WINDOW_MS).toISOString()]);
  return id;
}

export interface MaintenanceChange {
  readonly id: string;
  readonly runId: string | null;
  readonly task: string;
  readonly kind: string;
  readonly subject: string;
  readonly target: string | null;
  readonly why: string;
  readonly createdAt: string;
  readonly undoUntil: string;
  readonly undoneAt: string | null;
  /** Whether it can still be undone now. */
  readonly undoable: boolean;
}

type ChangeRow = { id: string; run_id: string | null; task: string; kind: string; subject: string; target: string | null; why: string; created_at: string; undo_until: string; undone_at: string | null };

const toChange = (r: ChangeRow, nowIso: string): MaintenanceChange => ({
  id: r.id, runId: r.run_id, task: r.task, kind: r.kind, subject: r.subject, target: r.target, why: r.why, createdAt: r.created_at,
  undoUntil: r.undo_until, undoneAt: r.undone_at, undoable: r.undone_at === null && r.undo_until >= nowIso,
});

/** Logged changes, newest first; of one run when `runId` is given. */
export function listMaintenanceChanges(db: SqlReader, nowMs: number, filter: { readonly runId?: string; readonly limit?: number } = {}): MaintenanceChange[] {
  const nowIso = new Date(nowMs).toISOString();
  const rows = db.all<ChangeRow>(
    `SELECT id, run_id, task, kind, subject, target, why, created_at, undo_until, undone_at FROM maintenance_changes
      ${filter.runId ? 'WHERE run_id = ?' : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`, filter.runId ? [filter.runId, filter.limit ?? 500] : [filter.limit ?? 500]);
  return rows.map((r) => toChange(r, nowIso));
}

const day = (iso: string): string => iso.slice(0, 10);

/**
 * Undoes one logged change in the caller's write transaction. Refuses, saying why, when it was
 * already undone, its window has passed, or the graph moved on so far that the undo would clash
 * (the kept entity is gone, or an entity with the merged one's name exists again).
 */
export function undoMaintenanceChange(db: SqlWriter, ctx: GraphWriteContext, nowMs: number, changeId: string): MaintenanceChange {
  const row = db.get<ChangeRow & { undo: string }>('SELECT id, run_id, task, kind, subject, target, why, created_at, undo_until, undone_at, undo FROM maintenance_changes WHERE id = ?', [changeId]);
  if (!row) throw new MemoryError('E_NOT_FOUND', 'This maintenance change is no longer in the undo log (changes are kept 30 days after their undo window).');
  const what = `"${row.subject}" merged into "${row.target ?? '?'}" on ${day(row.created_at)}`;
  if (row.undone_at) throw new MemoryError('E_INVALID_INPUT', `${what} was already undone on ${day(row.undone_at)}.`);
  const nowIso = new Date(nowMs).toISOString();
  if (row.undo_until < nowIso) {
    throw new MemoryError('E_INVALID_INPUT', `${what} can no longer be undone: maintenance changes can be undone for ${UNDO_WINDOW_DAYS} days, and this one's window closed on ${day(row.undo_until)}.`);
  }
  if (row.kind !== 'entity_merge') throw new MemoryError('E_INVALID_INPUT', `This kind of change (${row.kind}) cannot be undone.`);
  let snap: MergeSnapshot;
  try { snap = JSON.parse(row.undo) as MergeSnapshot; } catch { throw new MemoryError('E_STORE_CORRUPT', `The undo record of ${what} is unreadable; nothing was changed.`); }
  undoMerge(db, ctx, snap, what);
  db.run('UPDATE maintenance_changes SET undone_at = ? WHERE id = ?', [ctx.nowIso, changeId]);
  return toChange({ ...row, undone_at: ctx.nowIso }, nowIso);
}

function insertRow(db: SqlWriter, table: string, columns: readonly string[], row: RowOf): void {
  db.run(`INSERT INTO ${table} (${cols(columns)}) VALUES (${columns.map(() => '?').join(', ')})`, columns.map((c) => row[c] ?? null));
}

function undoMerge(db: SqlWriter, ctx: GraphWriteContext, s: MergeSnapshot, what: string): void {
  const keepId = s.keep.id as string;
  const dropId = s.drop.id as string;
  const keepNow = db.get<{ mentions: number }>('SELECT mentions FROM entities WHERE id = ?', [keepId]);
  if (!keepNow) throw new MemoryError('E_NOT_FOUND', `${what} cannot be undone: "${String(s.keep.name)}" no longer exists (it was deleted or merged again since).`);
  if (db.get('SELECT 1 AS x FROM entities WHERE id = ?', [dropId])) throw new MemoryError('E_INVALID_INPUT', `${what} cannot be undone: "${String(s.drop.name)}" exists again.`);
  const clash = db.get<{ name: string }>("SELECT name FROM entities WHERE agent_id = ? AND COALESCE(scope, '') = COALESCE(?, '') AND canonical_name = ? AND id <> ?",
    [s.drop.agent_id, s.drop.scope, s.drop.canonical_name, keepId]);
  if (clash) throw new MemoryError('E_INVALID_INPUT', `${what} cannot be undone: an entity named "${clash.name}" was created since; merge or rename it first.`);

  // The kept entity gets its own name, type, description and pin back; its mention count loses what the merge added.
  const shared = s.mentions.filter((m) => m.keepHadIt).length;
  const added = Number(s.drop.mentions) - shared;
  db.run('UPDATE entities SET name = ?, canonical_name = ?, entity_type = ?, description = ?, pinned = ?, pinned_at = ?, mentions = MAX(0, mentions - ?), updated_at = ? WHERE id = ?',
    [s.keep.name, s.keep.canonical_name, s.keep.entity_type, s.keep.description, s.keep.pinned, s.keep.pinned_at, Math.max(0, added), ctx.nowIso, keepId]);
  insertRow(db, 'entities', ENTITY_COLUMNS, { ...s.drop, updated_at: ctx.nowIso });

  for (const m of s.mentions) {
    db.run('INSERT OR IGNORE INTO memory_entity_mentions (memory_id, entity_id, mention_text, confidence) VALUES (?, ?, ?, ?)', [m.memory_id, dropId, m.mention_text, m.confidence]);
    if (!m.keepHadIt) db.run('DELETE FROM memory_entity_mentions WHERE memory_id = ? AND entity_id = ?', [m.memory_id, keepId]);
  }
  for (const r of s.relations) {
    const id = r.id as string;
    if (db.get('SELECT 1 AS x FROM relations WHERE id = ?', [id])) {
      db.run('UPDATE relations SET source_entity_id = ?, target_entity_id = ?, updated_at = ? WHERE id = ?', [r.source_entity_id, r.target_entity_id, ctx.nowIso, id]);
    } else {
      // Folded into another relation or dropped as a self relation by the merge: it comes back as it was.
      db.run('DELETE FROM relations WHERE source_entity_id = ? AND target_entity_id = ? AND relation_type = ?', [r.source_entity_id, r.target_entity_id, r.relation_type]);
      insertRow(db, 'relations', RELATION_COLUMNS, r);
    }
  }
  for (const j of s.joined) db.run('UPDATE relations SET mentions = MAX(1, mentions - ?), updated_at = ? WHERE id = ?', [j.mentions, ctx.nowIso, j.into]);
  for (const a of s.aspects) {
    if (db.get('SELECT 1 AS x FROM entity_aspects WHERE id = ?', [a.id])) db.run('UPDATE entity_aspects SET entity_id = ?, updated_at = ? WHERE id = ?', [dropId, ctx.nowIso, a.id]);
    else insertRow(db, 'entity_aspects', ASPECT_COLUMNS, a);
  }
  for (const a of s.attributes) db.run('UPDATE entity_attributes SET entity_id = ?, aspect_id = ?, updated_at = ? WHERE id = ?', [dropId, a.aspect_id, ctx.nowIso, a.id]);
  for (const p of s.predictorIds) db.run('UPDATE predictor_comparisons SET focal_entity_id = ? WHERE id = ?', [dropId, p]);
  recordGraphOp(db, ctx, { op: 'entity_unmerge', targetKind: 'entity', targetId: dropId, details: { from: keepId, name: s.drop.name } });
}

/** Where an entity that is gone went: the live entity it was merged into (following later merges), or undefined. */
export function mergedInto(db: SqlReader, entityId: string): { readonly id: string; readonly name: string; readonly at: string } | undefined {
  if (db.get('SELECT 1 AS x FROM entities WHERE id = ?', [entityId])) return undefined;
  let id = entityId;
  let at = '';
  for (let hop = 0; hop < 10; hop++) {
    const r = db.get<{ target_id: string; created_at: string }>(
      "SELECT target_id, created_at FROM graph_ops WHERE op = 'entity_merge' AND json_extract(details, '$.merged.id') = ? ORDER BY rowid DESC LIMIT 1", [id]);
    if (!r) return undefined;
    id = r.target_id;
    at = at || r.created_at;
    const live = db.get<{ name: string }>('SELECT name FROM entities WHERE id = ?', [id]);
    if (live) return { id, name: live.name, at };
  }
  return undefined;
}

/** The newest graph_ops position (a cursor for `entityMergesSince`). */
export function graphOpsCursor(db: SqlReader): number {
  return db.get<{ n: number | null }>('SELECT MAX(rowid) AS n FROM graph_ops')?.n ?? 0;
}

/** Entity merges recorded after `cursor` (any actor: maintenance, ingest, a person), with the new cursor. */
export function entityMergesSince(db: SqlReader, cursor: number): { readonly cursor: number; readonly merges: readonly { readonly mergedId: string; readonly mergedName: string }[] } {
  const rows = db.all<{ rowid: number; id: string | null; name: string | null }>(
    "SELECT rowid, json_extract(details, '$.merged.id') AS id, json_extract(details, '$.merged.name') AS name FROM graph_ops WHERE rowid > ? AND op = 'entity_merge' ORDER BY rowid", [cursor]);
  return {
    cursor: Math.max(cursor, graphOpsCursor(db)),
    merges: rows.filter((r) => r.id && r.name).map((r) => ({ mergedId: r.id as string, mergedName: r.name as string })),
  };
}
