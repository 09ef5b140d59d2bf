import { existsSync } from 'node:fs';
import { createStreamLogger } from '../../core/logger';
import { MemoryError } from '../../core/errors';
import { openStore } from '../../core/store/openStore';
import { checkStoreFiles } from '../../core/store/storeFileCheck';
import type { StoreFileCheck } from '../../core/store/storeFileCheck';
import { nodeStoreFs } from '../../core/store/storeFs';
import type { StoreRecoveryReport } from '../../core/store/storeRecovery';
import type { ParsedArgs } from '../args';
import { cliStoreDir } from '../openCliStore';
import type { CliCommand, CliIo } from '../run';

/**
 * `agent-memory store check [--json]`: a read-only check of the store folder's files (both
 * snapshots, every journal record, snapshot position and journal tip against the journal, the
 * write lock, files kept aside); exit 0 when nothing is damaged, 1 otherwise.
 * `agent-memory store recover [--json]`: opens the store the way every command does (which
 * repairs what it can and sets damaged files aside), also sets a damaged previous snapshot aside,
 * takes a fresh snapshot, prints exactly what was lost, then checks again.
 * See docs/store.md, "Recovery" and "Fault table".
 */
function printCheck(check: StoreFileCheck, io: CliIo): void {
  if (check.findings.length === 0) { io.stdout('The store files are consistent.\n'); return; }
  for (const f of check.findings) io.stdout(`${f.severity === 'damage' ? 'DAMAGE' : 'note'}  ${f.file}: ${f.message}\n`);
  if (!check.ok) io.stdout('Run `agent-memory store recover` to repair (damaged files are kept aside, and it says exactly what was lost).\n');
}

function storeFolder(args: ParsedArgs): string {
  const dir = cliStoreDir(args);
  if (!existsSync(dir)) throw new MemoryError('E_NOT_FOUND', `No memory store at ${dir}.`);
  return dir;
}

async function check(args: ParsedArgs, io: CliIo): Promise<number> {
  const result = checkStoreFiles(nodeStoreFs, storeFolder(args));
  if (args.flags.json === true) io.stdout(JSON.stringify(result) + '\n');
  else printCheck(result, io);
  return result.ok ? 0 : 1;
}

async function recover(args: ParsedArgs, io: CliIo): Promise<number> {
  const dir = storeFolder(args);
  const store = await openStore({ dir, logger: createStreamLogger(args.flags.verbose === true ? 'debug' : 'error'), config: { snapshotOnClose: 'never' }, verifyPreviousSnapshot: true });
  let report: StoreRecoveryReport | undefined;
  try {
    report = store.recovery;
    await store.snapshot();
  } finally {
    await store.close();
  }
  const after = checkStoreFiles(nodeStoreFs, dir);
  if (args.flags.json === true) {
    io.stdout(JSON.stringify({ recovery: report ?? null, check: after }) + '\n');
  } else {
    io.stdout(report ? `${report.message}\n` : 'Nothing to recover: the store opened cleanly.\n');
    printCheck(after, io);
  }
  return after.ok ? 0 : 1;
}

export const storeCommand: CliCommand = async (args, io) => {
  const [sub, ...rest] = args.positionals;
  if (rest.length || (sub !== 'check' && sub !== 'recover')) throw new MemoryError('E_USAGE', 'store needs check or recover, e.g. agent-memory store check');
  return sub === 'check' ? check(args, io) : recover(args, io);
};
