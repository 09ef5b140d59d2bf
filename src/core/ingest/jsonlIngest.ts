import { MemoryError, userMessage } from '../errors';
import { canonicalIso } from '../memory/memoryRecords';
import { rememberInTransaction } from '../memory/remember';
import { assertStorableText } from '../memory/textValidation';
import type { RememberDeps, RememberInput } from '../memory/remember';
import type { MemoryStore } from '../store/storeTypes';

/**
 * JSONL ingest: one memory a line, {content, type?, sourceId?, createdAt?,
 * sessionId?, who?, project?, tags?}. Every line is validated completely (JSON shape, text that
 * can be stored losslessly, real dates) before anything is written, so a bad line is reported with
 * its number and nothing from the file is stored. Valid files are written INGEST_BATCH memories per
 * transaction; should a write itself fail part-way (disk full, lock timeout), the error says how
 * many memories were committed, and running the same ingest again skips them (dedup) and stores
 * the rest. docs/ingest.md describes the rules.
 */
const FIELDS = new Set(['content', 'type', 'sourceId', 'createdAt', 'sessionId', 'who', 'project', 'tags']);

/** Memories per write transaction. */
export const INGEST_BATCH = 100;
/** Largest JSONL file ingested (bytes); the reader enforces it on bytes read, so pipes and devices are capped too. */
export const INGEST_MAX_FILE_BYTES = 64 * 1024 * 1024;

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
  try {
    for (const k of ['content', 'type', 'sourceId', 'createdAt', 'sessionId', 'who', 'project'] as const) {
      if (typeof o[k] === 'string') assertStorableText(o[k], `'${k}'`);
    }
    for (const t of (o.tags as string[] | undefined) ?? []) assertStorableText(t, "a tag");
    if (typeof o.createdAt === 'string') canonicalIso(o.createdAt, "'createdAt'");
  } catch (e) {
    throw bad(lineNo, e instanceof Error ? e.message : String(e));
  }
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

/**
 * Writes parsed memories through remember(), INGEST_BATCH per transaction. A failing batch is
 * rolled back whole; the error then names how many memories earlier batches committed.
 */
export async function ingestMemories(store: MemoryStore, inputs: readonly RememberInput[], deps: RememberDeps): Promise<IngestResult> {
  let ingested = 0;
  let duplicates = 0;
  const ids: string[] = [];
  for (let i = 0; i < inputs.length; i += INGEST_BATCH) {
    const batch = inputs.slice(i, i + INGEST_BATCH);
    let results: ReturnType<typeof rememberInTransaction>[];
    try {
      results = await store.write('ingest', (db) => batch.map((input, j) => {
        try {
          return rememberInTransaction(db, input, deps);
        } catch (e) {
          if (e instanceof MemoryError && e.code === 'E_INVALID_INPUT') throw new MemoryError('E_INVALID_INPUT', `Memory ${i + j + 1}: ${e.message}`, { index: i + j + 1 });
          throw e;
        }
      }));
    } catch (e) {
      if (i === 0) throw e;
      const code = e instanceof MemoryError ? e.code : 'E_INTERNAL';
      throw new MemoryError(code, `${userMessage(e)} Memories 1 to ${i} were stored (${ingested} new, ${duplicates} already known); nothing from memory ${i + 1} on was. Running the same ingest again skips the stored ones.`, { ...(e instanceof MemoryError ? e.details : {}), committed: i }, { cause: e });
    }
    for (const r of results) {
      if (r.duplicate) duplicates++;
      else { ingested++; ids.push(...r.chunkIds); }
    }
  }
  return { ingested, duplicates, ids };
}
