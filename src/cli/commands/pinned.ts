/** `agent-memory pinned [--agent A] [--json]`: pinned entities, newest pin first. */
import { getPinnedEntities } from '../../core/pinning/pinning';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

export async function pinnedCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const agent = stringFlag(args, 'agent') ?? 'default';
  const list = await withCliStore(args, async (store) => store.read((db) => getPinnedEntities(db, agent)));
  const reason = 'No pinned entities: pin one with agent-memory pin NAME to keep it focal in every recall.';
  if (args.flags.json === true) {
    io.stdout(JSON.stringify(list) + '\n');
    // The JSON stays the documented array; an empty one is explained on stderr.
    if (!list.length) io.stderr(`reason: ${reason}\n`);
  } else io.stdout(list.length ? list.map((p) => `${p.name}  (pinned ${p.pinnedAt}, id ${p.id})`).join('\n') + '\n' : `${reason}\n`);
  return 0;
}
