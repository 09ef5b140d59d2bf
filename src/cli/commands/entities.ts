import { listEntities } from '../../core/graph/graphQueries';
import { intFlag } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliCommand } from '../run';

/** `agent-memory entities [--json] [--limit N]`: the graph's entities, pinned first, then by mentions. */
export const entitiesCommand: CliCommand = async (args, io) => {
  const limit = intFlag(args, 'limit', 1, 100_000);
  const list = await withCliStore(args, async (store) => store.read((db) => listEntities(db, limit !== undefined ? { limit } : {})));
  const reason = 'No entities yet: they are extracted from memories (remember, ingest or import some, then let the jobs run).';
  if (args.flags.json === true) {
    io.stdout(JSON.stringify(list) + '\n');
    // The JSON stays the documented array; an empty one is explained on stderr.
    if (!list.length) io.stderr(`reason: ${reason}\n`);
    return 0;
  }
  if (!list.length) { io.stdout(`${reason}\n`); return 0; }
  for (const e of list) io.stdout(`${e.pinned ? '* ' : '  '}${e.name} (${e.type}, ${e.mentions} mention${e.mentions === 1 ? '' : 's'})\n`);
  return 0;
};
