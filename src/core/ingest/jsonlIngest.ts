import { MemoryError } from '../errors';
import { rememberInTransaction } from '../memory/remember';
import type { RememberDeps, RememberInput } from '../memory/remember';
import type { MemoryStore } from '../store/storeTypes';

/**
 * JSONL ingest (issue 5 §10): one memory a line, {content, type?, sourceId?, createdAt?,
 * sessionId?, who?, project?, tags?}. Every line is validated before anything is written, so a
 * bad line is reported with its number and loses nothing; valid files are written in batches.
 */
const FIELDS = new Set(['content', 'type', 'sourceId', 'createdAt', 'sessionId', 'who', 'project', 'tags']);

/** Memories per write transaction. */
export const INGEST_BATCH = 100;

function bad(lineNo: number, message: string): MemoryError {
  return new MemoryError('E_INVALID_INPUT', `Line ${lineNo}: ${message}`, { line: lineNo });
}

export function parseJsonlLine(line: string, lineNo: number): RememberInput {
  let v: unknown;
  try { v = JSON.parse(line); } catch { throw bad(lineNo, 'not valid JSON'); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(lineNo, 'expected a JSON object');
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !FIELDS.has(k));
  if (extra.length) throw bad(lineNo, `unknown field ${extra.map((k) => `'${k}'`).join(', ')}`);
  if (typeof o.content !== 'string' || !o.content.trim()) throw bad(lineNo, "'content' must be non-empty text");
  for (const k of ['type', 'sourceId', 'createdAt', 'sessionId', 'who', 'project'] as const) {
    if (o[k] !== undefined && typeof o[k] !== 'string') throw bad(lineNo, `'${k}' must be text`);
  }
  if (o.tags !== undefined && (!Array.isArray(o.tags) || o.tags.some((t) => typeof t !== 'string'))) throw bad(lineNo, "'tags' must be an array of text");
  const s = (k: string): string | undefined => o[k] as string | undefined;
  return {
    content: o.content,
    ...(s('type') ? { type: s('type') } : {}),
    ...(s('sourceId') !== undefined ? { sourceId: s('sourceId') } : {}),
    ...(s('createdAt') !== undefined ? { createdAt: s('createdAt') } : {}),
    ...(s('sessionId') !== undefined ? { sessionKey: s('sessionId') } : {}),
    ...(s('who') !== undefined ? { who: s('who') } : {}),
    ...(s('project') !== undefined ? { project: s('project') } : {}),
    ...(o.tags !== undefined ? { tags: o.tags as string[] } : {}),
  };
}

export function parseJsonl(text: string): RememberInput[] {
  const out: RememberInput[] = [];
  text.split(/\r?\n/).forEach((line, i) => { if (line.trim()) out.push(parseJsonlLine(line, i + 1)); });
  return out;
}

export interface IngestResult {
  readonly ingested: number;
  readonly duplicates: number;
  /** Ids of the newly stored memories (chunks included). */
  readonly ids: readonly string[];
}

/** Writes parsed memories through remember(), INGEST_BATCH per transaction. */
export async function ingestMemories(store: MemoryStore, inputs: readonly RememberInput[], deps: RememberDeps): Promise<IngestResult> {
  let ingested = 0;
  let duplicates = 0;
  const ids: string[] = [];
  for (let i = 0; i < inputs.length; i += INGEST_BATCH) {
    const batch = inputs.slice(i, i + INGEST_BATCH);
    const results = await store.write('ingest', (db) => batch.map((input, j) => {
      try {
        return rememberInTransaction(db, input, deps);
      } catch (e) {
        if (e instanceof MemoryError && e.code === 'E_INVALID_INPUT') throw new MemoryError('E_INVALID_INPUT', `Memory ${i + j + 1}: ${e.message}`, { index: i + j + 1 });
        throw e;
      }
    }));
    for (const r of results) {
      if (r.duplicate) duplicates++;
      else { ingested++; ids.push(...r.chunkIds); }
    }
  }
  return { ingested, duplicates, ids };
}
