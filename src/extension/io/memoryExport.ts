/**
 * Export and import formats for Memory: Export / Import. vscode-free.
 * - JSONL: one memory a line in the ingest format ({content, type, sourceId, createdAt, project,
 *   who, tags}), so `agent-memory ingest` and the import command read it back.
 * - Markdown: a readable document; each memory is a `## type · date` section whose metadata
 *   comment records its fields and its line count, so content with its own headings round-trips.
 *   Markdown written by hand (no metadata comments) imports one memory per section or paragraph.
 */
import { MemoryError } from '../../core/errors';
import { parseJsonl } from '../../core/ingest/jsonlIngest';
import type { RememberInput } from '../../core/memory/remember';
import type { SqlReader } from '../../core/store/storeTypes';

export const MARKDOWN_MARKER = '<!-- agent-memory-export v1 -->';

export interface ExportedMemory {
  readonly content: string;
  readonly type: string;
  readonly createdAt: string;
  readonly sourceId?: string;
  readonly project?: string;
  readonly who?: string;
  readonly tags?: readonly string[];
}

/** Live memories of the store, oldest first. */
export function readExportable(db: SqlReader): ExportedMemory[] {
  return db.all<{ content: string; type: string; created_at: string; source_id: string | null; project: string | null; who: string | null; tags: string | null }>(
    'SELECT content, type, created_at, source_id, project, who, tags FROM memories WHERE is_deleted = 0 ORDER BY created_at, rowid',
  ).map((r) => {
    let tags: string[] = [];
    try { const t = r.tags ? (JSON.parse(r.tags) as unknown) : []; if (Array.isArray(t)) tags = t.filter((x): x is string => typeof x === 'string'); } catch { tags = []; }
    return {
      content: r.content, type: r.type, createdAt: r.created_at,
      ...(r.source_id ? { sourceId: r.source_id } : {}), ...(r.project ? { project: r.project } : {}), ...(r.who ? { who: r.who } : {}), ...(tags.length ? { tags } : {}),
    };
  });
}

export function toJsonl(memories: readonly ExportedMemory[]): string {
  return memories.map((m) => JSON.stringify(m)).join('\n') + (memories.length ? '\n' : '');
}

export function toMarkdown(memories: readonly ExportedMemory[], title = 'Agent Memory export'): string {
  const out = [`# ${title}`, MARKDOWN_MARKER, ''];
  for (const m of memories) {
    const lines = m.content.split(/\r?\n/);
    const { content: _c, ...meta } = m;
    out.push(`## ${m.type} · ${m.createdAt.slice(0, 10)}`, `<!-- ${JSON.stringify({ ...meta, lines: lines.length }).replace(/--/g, '\\u002d\\u002d')} -->`, ...lines, '');
  }
  return out.join('\n');
}

function fromMeta(json: string, lineNo: number): { meta: Record<string, unknown>; lines: number } {
  let v: unknown;
  try { v = JSON.parse(json); } catch { throw new MemoryError('E_INVALID_INPUT', `Line ${lineNo}: the memory's metadata comment is not valid JSON.`); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MemoryError('E_INVALID_INPUT', `Line ${lineNo}: the metadata comment must be a JSON object.`);
  const o = v as Record<string, unknown>;
  const lines = o.lines;
  if (typeof lines !== 'number' || !Number.isInteger(lines) || lines < 1) throw new MemoryError('E_INVALID_INPUT', `Line ${lineNo}: the metadata comment needs a positive "lines" count.`);
  return { meta: o, lines };
}

/** Reads an exported (or hand-written) Markdown file into memories to remember. */
export function parseMarkdown(text: string): RememberInput[] {
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => l.trim() === MARKDOWN_MARKER)) return parsePlainMarkdown(text);
  const out: RememberInput[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^<!-- (\{.*\}) -->$/.exec(lines[i] ?? '');
    if (!m || !(lines[i - 1] ?? '').startsWith('## ')) continue;
    const { meta, lines: n } = fromMeta(m[1] ?? '', i + 1);
    const content = lines.slice(i + 1, i + 1 + n).join('\n');
    const line = JSON.stringify({ content, ...Object.fromEntries(Object.entries(meta).filter(([k]) => k !== 'lines')) });
    out.push(...parseJsonl(line));
    i += n;
  }
  return out;
}

/** Hand-written Markdown: one memory per `##` section (heading kept as context), else per paragraph. */
export function parsePlainMarkdown(text: string): RememberInput[] {
  const sections = text.split(/^##+\s+/m).map((s) => s.trim()).filter(Boolean);
  const hasHeadings = /^##+\s+/m.test(text);
  const parts = hasHeadings ? sections.filter((s) => !s.startsWith('# ') || s.includes('\n')) : text.split(/\n\s*\n/).map((s) => s.trim()).filter(Boolean);
  return parts.map((p) => p.replace(/^# .*\n?/, '').trim()).filter(Boolean).map((content) => ({ content }));
}
