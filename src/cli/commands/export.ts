import { writeFileSync } from 'node:fs';
import { systemClock, isoFromMs } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { exportSnapshot, formatExport, isExportFormat } from '../../core/capture/memoryExport';
import { stringFlag } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliCommand } from '../run';

/**
 * `agent-memory export [--format jsonl|markdown] [--out FILE] [--project P]`: the live memories as
 * ingest-format JSONL (read back by `agent-memory ingest`) or as Markdown; to stdout unless --out.
 */
export const exportCommand: CliCommand = async (args, io) => {
  if (args.positionals.length) throw new MemoryError('E_USAGE', 'export takes no arguments; use --out FILE to write a file');
  const format = stringFlag(args, 'format') ?? 'jsonl';
  if (!isExportFormat(format)) throw new MemoryError('E_USAGE', '--format must be jsonl or markdown');
  const out = stringFlag(args, 'out');
  const project = stringFlag(args, 'project');
  const snapshot = await withCliStore(args, async (store) => store.read((db) => exportSnapshot(db, project !== undefined ? { project } : {})));
  const text = formatExport(snapshot, format, isoFromMs(systemClock.now()));
  if (out === undefined) { io.stdout(text); return 0; }
  try { writeFileSync(out, text, 'utf8'); } catch { throw new MemoryError('E_STORE_IO', `Cannot write ${out}.`); }
  io.stderr(`exported ${snapshot.memories.length} memories to ${out}\n`);
  return 0;
};
