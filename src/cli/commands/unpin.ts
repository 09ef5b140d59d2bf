/** `agent-memory unpin NAME [--agent A] [--json]` (see pin.ts). */
import { isoFromMs, systemClock } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { unpinEntity } from '../../core/pinning/pinning';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

export async function unpinCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const name = args.positionals.join(' ').trim();
  if (!name) throw new MemoryError('E_USAGE', 'usage: agent-memory unpin NAME');
  const agent = stringFlag(args, 'agent') ?? 'default';
  const r = await withCliStore(args, (store) => store.write('unpin', (db) => unpinEntity(db, agent, name, isoFromMs(systemClock.now()))));
  if (args.flags.json === true) io.stdout(JSON.stringify(r) + '\n');
  else io.stdout(`${r.name} unpinned${r.changed ? '' : ' (no change)'}\n`);
  return 0;
}
