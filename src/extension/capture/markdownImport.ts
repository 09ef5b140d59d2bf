/**
 * Reads Markdown into memories for Memory: Import Memories. vscode-free.
 * - The export format (src/core/capture/memoryExport.ts): `## Project: P` / `## No project`,
 *   `### type (n)`, one `- text _(date, pinned, by who, #tags)_` bullet per memory with
 *   continuation lines indented by two spaces; the `## Pinned entities` section is skipped.
 * - Markdown written by hand: one memory per `##` section (its heading kept), else per paragraph.
 */
import type { RememberInput } from '../../core/memory/remember';

export const EXPORT_TITLE = '# Agent Memory export';
const META = /\s_\((.*)\)_$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Bullet { lines: string[]; project: string | undefined; type: string | undefined }

function toInput(b: Bullet): RememberInput | undefined {
  const lines = [...b.lines];
  const last = lines[lines.length - 1] ?? '';
  const meta = META.exec(last);
  let createdAt: string | undefined;
  let who: string | undefined;
  let tags: string[] = [];
  if (meta) {
    lines[lines.length - 1] = last.slice(0, meta.index);
    for (const part of (meta[1] ?? '').split(', ')) {
      if (DATE.test(part)) createdAt = `${part}T00:00:00.000Z`;
      else if (part.startsWith('by ')) who = part.slice(3);
      else if (part.startsWith('#')) tags = part.split(' ').filter((t) => t.startsWith('#') && t.length > 1).map((t) => t.slice(1));
    }
  }
  const content = lines.join('\n').trim();
  if (!content) return undefined;
  return {
    content,
    ...(b.type ? { type: b.type } : {}),
    ...(b.project ? { project: b.project } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(who ? { who } : {}),
    ...(tags.length ? { tags } : {}),
    sourceType: 'markdown-import',
  };
}

/** Memories of an Agent Memory Markdown export. */
export function parseExportMarkdown(text: string): RememberInput[] {
  const out: RememberInput[] = [];
  let project: string | undefined;
  let type: string | undefined;
  let skip = false;
  let bullet: Bullet | undefined;
  const flush = (): void => {
    const input = bullet && toInput(bullet);
    if (input) out.push(input);
    bullet = undefined;
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('## ')) {
      flush();
      const h = line.slice(3).trim();
      skip = h === 'Pinned entities';
      project = h.startsWith('Project: ') ? h.slice('Project: '.length) : undefined;
      type = undefined;
    } else if (line.startsWith('### ')) {
      flush();
      type = line.slice(4).replace(/\s*\(\d+\)\s*$/, '').trim() || undefined;
    } else if (line.startsWith('- ') && !skip) {
      flush();
      bullet = { lines: [line.slice(2)], project, type };
    } else if (bullet && line.startsWith('  ')) {
      bullet.lines.push(line.slice(2));
    } else {
      flush();
    }
  }
  flush();
  return out;
}

/** Hand-written Markdown: one memory per `##` section (heading kept as context), else per paragraph. */
export function parsePlainMarkdown(text: string): RememberInput[] {
  const body = text.replace(/^# .*(\r?\n|$)/, '');
  const parts = /^##+\s+/m.test(body)
    ? body.split(/^##+\s+/m)
    : body.split(/\n\s*\n/);
  return parts.map((p) => p.trim()).filter(Boolean).map((content) => ({ content, sourceType: 'markdown-import' }));
}

export function parseMarkdownMemories(text: string): RememberInput[] {
  return text.trimStart().startsWith(EXPORT_TITLE) ? parseExportMarkdown(text) : parsePlainMarkdown(text);
}
