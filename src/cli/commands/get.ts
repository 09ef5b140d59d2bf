import { MemoryError } from '../../core/errors';
import { getMemory } from '../../core/memory/memoryRecords';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

/** `agent-memory get ID [--json]`: one memory (also a soft-deleted one, marked as such). */
export async function getCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const id = args.positionals[0];
  if (!id || args.positionals.length > 1) throw new MemoryError('E_USAGE', 'get needs exactly one memory id, e.g. agent-memory get 3f2a… --json');
  const memory = await withCliStore(args, async (store) => store.read((db) => getMemory(db, id)));
  if (!memory) throw new MemoryError('E_NOT_FOUND', `No memory with id ${id}.`);
  if (args.flags.json === true) {
    io.stdout(`${JSON.stringify(memory, null, 2)}\n`);
  } else {
    const details = [memory.type, memory.project ? `project ${memory.project}` : undefined, memory.createdAt, memory.isDeleted ? 'deleted' : undefined].filter(Boolean).join(', ');
    io.stdout(`${memory.content}\n(${details})\n`);
  }
  return 0;
}
