import { isoFromMs, systemClock } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { canonicalIso } from '../../core/memory/memoryRecords';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { settleCli } from '../cliSettle';
import { withCliEngine } from '../openCliStore';
import type { CliCommand, CliIo } from '../run';
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
  return (args, io) => rememberWith(args, io, options);
}

export const rememberCommand: CliCommand = makeRememberCommand();

async function rememberWith(args: ParsedArgs, io: CliIo, options: PipelineCliOptions): Promise<number> {
  const wait = args.flags['no-wait'] !== true;
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
  const outcome = await withCliEngine(args, io, options, async (engine) => {
    const r = await engine.remember(input);
    if (wait && !r.duplicate) await settleCli(engine, io);
    return r;
  });
  if (outcome.duplicate) io.stderr(`agent-memory: already remembered as ${outcome.id} (duplicate, nothing added)\n`);
  io.stdout(`${outcome.id}\n`);
  return 0;
}
