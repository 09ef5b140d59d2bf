import { mapMemoryRow } from '../memory/memoryRecords';
import type { MemoryRecord } from '../memory/memoryRecords';
import { getPinnedEntities } from '../pinning/pinning';
import type { PinnedEntity } from '../pinning/pinning';
import { MemoryError } from '../errors';
import type { Row, SqlReader } from '../store/storeTypes';

/**
 * Export of the live memories: JSONL in the ingest format
 * ({content, type, sourceId, createdAt, sessionId, who, project, tags}; `agent-memory ingest`
 * reads it back) and Markdown grouped by project and type with a pinned-entities section.
 * The formatting functions are pure; exportSnapshot() is the one store query.
 */
export const EXPORT_FORMATS = ['jsonl', 'markdown'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportSnapshot {
  readonly memories: readonly MemoryRecord[];
  readonly pinned: readonly PinnedEntity[];
}

export function isExportFormat(v: string): v is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(v);
}

/** Live (not deleted) memories of an agent, oldest first (ingest order = creation order), and its pinned entities. */
export function exportSnapshot(db: SqlReader, options: { agentId?: string; project?: string } = {}): ExportSnapshot {
  const agentId = options.agentId ?? 'default';
  const rows = options.project === undefined
    ? db.all<Row>('SELECT * FROM memories WHERE is_deleted = 0 AND agent_id = ? ORDER BY created_at, rowid', [agentId])
    : db.all<Row>('SELECT * FROM memories WHERE is_deleted = 0 AND agent_id = ? AND project = ? ORDER BY created_at, rowid', [agentId, options.project]);
  const pinned = getPinnedEntities(db, agentId);
  return { memories: rows.map(mapMemoryRow), pinned };
}

/** One ingest line of a memory; null fields are left out (ingest accepts only text there). */
export function memoryToIngestLine(m: MemoryRecord): string {
  return JSON.stringify({
    content: m.content,
    type: m.type,
    ...(m.sourceId !== null ? { sourceId: m.sourceId } : {}),
    createdAt: m.createdAt,
    ...(m.sessionKey !== null ? { sessionId: m.sessionKey } : {}),
    ...(m.who !== null ? { who: m.who } : {}),
    ...(m.project !== null ? { project: m.project } : {}),
    ...(m.tags.length ? { tags: m.tags } : {}),
  });
}

export function formatMemoriesJsonl(memories: readonly MemoryRecord[]): string {
  return memories.map((m) => `${memoryToIngestLine(m)}\n`).join('');
}

const NO_PROJECT = '(no project)';

function bullet(m: MemoryRecord): string {
  const lines = m.content.trim().split(/\r?\n/);
  const meta = [m.createdAt.slice(0, 10), m.pinned ? 'pinned' : '', m.who ? `by ${m.who}` : '', m.tags.length ? m.tags.map((t) => `#${t}`).join(' ') : ''].filter(Boolean).join(', ');
  const body = [lines[0] ?? '', ...lines.slice(1).map((l) => `  ${l}`)].join('\n');
  return `- ${body} _(${meta})_`;
}

function byKey<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k);
    if (list) list.push(it); else out.set(k, [it]);
  }
  return new Map([...out.entries()].sort(([a], [b]) => (a === NO_PROJECT ? 1 : b === NO_PROJECT ? -1 : a.localeCompare(b))));
}

/** Markdown: a header, the pinned entities, then per project (alphabetical, no project last) per type. */
export function formatMemoriesMarkdown(snapshot: ExportSnapshot, exportedAt: string): string {
  const out = ['# Agent Memory export', '', `${snapshot.memories.length} memories, exported ${exportedAt}.`, '', '## Pinned entities', ''];
  if (snapshot.pinned.length) for (const p of snapshot.pinned) out.push(`- **${p.name}** (pinned ${p.pinnedAt.slice(0, 10)})`);
  else out.push('_None._');
  for (const [project, list] of byKey(snapshot.memories, (m) => m.project ?? NO_PROJECT)) {
    out.push('', `## ${project === NO_PROJECT ? 'No project' : `Project: ${project}`}`);
    const types = [...byKey(list, (m) => m.type).entries()].sort(([a], [b]) => a.localeCompare(b));
    for (const [type, ms] of types) {
      out.push('', `### ${type} (${ms.length})`, '');
      for (const m of ms) out.push(bullet(m));
    }
  }
  return `${out.join('\n')}\n`;
}

/** The export text of a snapshot in one format. */
export function formatExport(snapshot: ExportSnapshot, format: ExportFormat, exportedAt: string): string {
  if (format === 'jsonl') return formatMemoriesJsonl(snapshot.memories);
  if (format === 'markdown') return formatMemoriesMarkdown(snapshot, exportedAt);
  throw new MemoryError('E_INVALID_INPUT', `Unknown export format '${String(format)}'; use jsonl or markdown.`);
}
