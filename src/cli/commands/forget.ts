import { systemClock } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { forgetMemoryCompletely } from '../../core/memory/forget';
import { withCliStore } from '../openCliStore';
import type { CliCommand } from '../run';

/**
 * `agent-memory forget ID [--json]`: hard delete of one memory with its vectors, hints and graph
 * traces, then a purge of the store files so its text is in none of them (docs/store.md).
 */
export const forgetCommand: CliCommand = async (args, io) => {
  const id = args.positionals[0];
  if (!id || args.positionals.length > 1) throw new MemoryError('E_USAGE', 'forget needs one memory id, e.g. agent-memory forget 3f2a…');
  const s = await withCliStore(args, (store) => forgetMemoryCompletely(store, id, systemClock, 'cli'));
  if (args.flags.json === true) io.stdout(JSON.stringify({ id, ...s }) + '\n');
  else {
    io.stdout(`Forgot ${id} (${s.vectorsRemoved} vector(s), ${s.hintsRemoved} hint(s), ${s.mentionsRemoved} mention(s), ${s.attributesRemoved} attribute(s), ${s.entitiesRemoved} entit${s.entitiesRemoved === 1 ? 'y' : 'ies'} removed)\n`);
    if (s.purge) io.stdout(`The store files were rewritten without it (${s.purge.generationsDeleted} journal file(s) deleted, ${s.purge.ms} ms); files kept aside by earlier repairs (*.damaged-*) are not touched.\n`);
  }
  return 0;
};
