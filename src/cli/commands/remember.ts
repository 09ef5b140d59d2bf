import { isoFromMs, systemClock } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { canonicalIso } from '../../core/memory/memoryRecords';
import { defaultRememberDeps, remember } from '../../core/memory/remember';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

/**
 * `agent-memory remember [--type T] [--source-id ID] [--session S] [--project P] [--created-at ISO] TEXT`
 * Goes through the full write path (redaction, dedup, chunking, embed/extract jobs queued for the
 * next worker). Prints the id only once the write is durable; a duplicate prints the existing id
 * (noted on stderr).
 */
export async function rememberCommand(args: ParsedArgs, io: CliIo): Promise<number> {
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
  const outcome = await withCliStore(args, (store) => remember(store, input, defaultRememberDeps(systemClock)));
  if (outcome.duplicate) io.stderr(`agent-memory: already remembered as ${outcome.id} (duplicate, nothing added)\n`);
  io.stdout(`${outcome.id}\n`);
  return 0;
}
