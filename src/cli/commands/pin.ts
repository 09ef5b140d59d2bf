/**
 * `agent-memory pin NAME [--agent A] [--json]`: pin an entity by name or id (idempotent; scoped by
 * agent). Pinned entities are always focal at session start.
 */
import { isoFromMs, systemClock } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { pinEntity } from '../../core/pinning/pinning';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

export async function pinCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const name = args.positionals.join(' ').trim();
  if (!name) throw new MemoryError('E_USAGE', 'usage: agent-memory pin NAME');
  const agent = stringFlag(args, 'agent') ?? 'default';
  const r = await withCliStore(args, (store) => store.write('pin', (db) => pinEntity(db, agent, name, isoFromMs(systemClock.now()))));
  if (args.flags.json === true) io.stdout(JSON.stringify(r) + '\n');
  else io.stdout(`${r.name} pinned${r.changed ? '' : ' (no change)'}\n`);
  return 0;
}
