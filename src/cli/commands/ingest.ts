import { MemoryError } from '../../core/errors';
import { readTextFileBounded } from '../../core/ingest/boundedRead';
import { INGEST_MAX_FILE_BYTES, parseJsonl } from '../../core/ingest/jsonlIngest';
import { settleCli } from '../cliSettle';
import { withCliEngine } from '../openCliStore';
import type { CliEngineOptions } from '../openCliStore';
import type { CliCommand, CliIo } from '../run';
import type { MemoryEngine } from '../../core/engine/memoryEngine';

/** What the write commands (ingest, remember, import, fetch) take: tests pass a fake embedder or LLM. */
export type PipelineCliOptions = Pick<CliEngineOptions, 'embedder' | 'llm'>;

/**
 * `agent-memory ingest FILE.jsonl [--no-wait] [--llm-url URL --llm-model M]`: one memory a line
 * {content, type?, sourceId?, createdAt?, sessionId?, who?, project?, tags?}. Prints
 * {"ingested","duplicates","ms"} once every new memory is embedded and extracted (searchable by
 * every arm), or right after the write with --no-wait (the jobs stay queued).
 */
export function makeIngestCommand(options: PipelineCliOptions = {}): CliCommand {
  return async (args, io) => {
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) throw new MemoryError('E_USAGE', 'ingest needs one JSONL file, e.g. agent-memory ingest memories.jsonl');
    const inputs = parseJsonl(readTextFileBounded(file, INGEST_MAX_FILE_BYTES));
    const started = performance.now();
    const result = await withCliEngine(args, io, options, async (engine) => {
      if (!engine.embedder) io.stderr('agent-memory: no embedding model found; memories are searchable by keyword only\n');
      const r = await engine.ingest(inputs);
      if (args.flags['no-wait'] !== true) await settleCli(engine, io);
      // A bulk import is when the same thing arrives under several names (`shelf.server`,
      // `shelf/server.py`): once extracted, duplicates are merged through the maintenance task, so
      // the merges are named in its report like any other (docs/extraction.md, "Canonical names").
      const merged = args.flags['no-wait'] !== true && r.ingested > 0 ? await mergeAfterIngest(engine, io) : 0;
      return { ...r, merged };
    });
    io.stdout(JSON.stringify({ ingested: result.ingested, duplicates: result.duplicates, ...(result.merged ? { entitiesMerged: result.merged } : {}), ms: Math.round(performance.now() - started) }) + '\n');
    return 0;
  };
}

/** Runs the merge-entities maintenance task; prints each merge it names to stderr; returns how many. */
async function mergeAfterIngest(engine: MemoryEngine, io: CliIo): Promise<number> {
  const report = await engine.maintenance.run(['merge-entities']);
  const task = report.tasks.find((t) => t.task === 'merge-entities');
  const lines = typeof task?.summary.merged === 'string' ? task.summary.merged.split('\n') : [];
  for (const line of lines) io.stderr(`agent-memory: ${line}\n`);
  return typeof task?.summary.entitiesMerged === 'number' ? task.summary.entitiesMerged : 0;
}

export const ingestCommand: CliCommand = makeIngestCommand();
