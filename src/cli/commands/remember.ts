import { isoFromMs, systemClock } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { createStreamLogger } from '../../core/logger';
import { canonicalIso } from '../../core/memory/memoryRecords';
import { defaultRememberDeps, remember } from '../../core/memory/remember';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliCommand, CliIo } from '../run';
import { cliEmbedder, cliLlm, cliRememberDeps, settlePipeline } from './ingest';
import type { PipelineCliOptions } from './ingest';

/**
 * `agent-memory remember [--type T] [--source-id ID] [--session S] [--project P] [--created-at ISO] [--no-wait] TEXT`
 * Goes through the full write path (redaction, dedup, chunking, embed/extract jobs), then, like
 * `ingest`, runs the jobs until the memory is embedded and extracted, so a `recall` right after
 * finds it by every arm (README's CLI example); `--no-wait` leaves them queued for the next
 * worker. Prints the id once the write is durable and its jobs are done; a duplicate prints the
 * existing id (noted on stderr).
 */
export function makeRememberCommand(options: PipelineCliOptions = {}): CliCommand {
  return async (args, io) => {
    const wait = args.flags['no-wait'] !== true;
    const embedder = wait ? cliEmbedder(options) : undefined;
    try {
      return await rememberWith(args, io, embedder, wait ? (options.llm ?? cliLlm)(args) : undefined, wait);
    } finally {
      await embedder?.dispose();
    }
  };
}

export const rememberCommand: CliCommand = makeRememberCommand();

async function rememberWith(args: ParsedArgs, io: CliIo, embedder: ReturnType<typeof cliEmbedder>, llm: ReturnType<typeof cliLlm>, wait: boolean): Promise<number> {
  const text = args.positionals.join(' ').trim();
  if (!text) throw new MemoryError('E_USAGE', 'remember needs the text to remember, e.g. agent-memory remember "we use pnpm"');
  const createdAtFlag = stringFlag(args, 'created-at');
  let createdAt: string;
  try {
    createdAt = createdAtFlag === undefined ? isoFromMs(systemClock.now()) : canonicalIso(createdAtFlag, '--created-at');
  } catch (e) {
    throw new MemoryError('E_USAGE', e instanceof Error ? e.message : String(e));
  }
  const input = {
    content: text,
    createdAt,
    type: stringFlag(args, 'type'),
    sourceId: stringFlag(args, 'source-id'),
    sessionKey: stringFlag(args, 'session'),
    project: stringFlag(args, 'project'),
  };
  const logger = createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn');
  const outcome = await withCliStore(args, async (store, settings) => {
    // Waiting without an embedding model queues no embed job (nothing here could run it); with
    // --no-wait every job is queued for the next worker, which may have a model.
    const r = await remember(store, input, wait ? cliRememberDeps(embedder, settings) : defaultRememberDeps(systemClock, { jobs: settings.jobs, enqueue: { embed: true, extract: settings.graphEnabled, hints: false } }));
    if (wait && !r.duplicate) await settlePipeline(store, embedder, llm, logger, io, settings);
    return r;
  });
  if (outcome.duplicate) io.stderr(`agent-memory: already remembered as ${outcome.id} (duplicate, nothing added)\n`);
  io.stdout(`${outcome.id}\n`);
  return 0;
}
