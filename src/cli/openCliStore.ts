/**
 * How CLI commands reach the store: `--store DIR`, else $AGENT_MEMORY_STORE, else ~/.agent-memory.
 * The CLI is short-lived, so it snapshots on close only when one is due (the journal keeps
 * everything durable in between), and always closes the store, also on errors. Commands that only
 * read (`stats`) never snapshot: a snapshot due because of other processes' writes is not their work
 * and cost `stats` seconds at 10k memories; a long `recall --stdin` session snapshots on close so the
 * next command does not replay its bookkeeping (docs/store.md, "Measured: recall as users run it").
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createStreamLogger } from '../core/logger';
import type { SnapshotOnClose } from '../core/config/storeConfig';
import { openStore } from '../core/store/openStore';
import type { DurableMemoryStore } from '../core/store/durableStore';
import { stringFlag } from './args';
import type { ParsedArgs } from './args';

export const STORE_ENV = 'AGENT_MEMORY_STORE';

export function cliStoreDir(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): string {
  const flag = stringFlag(args, 'store');
  if (flag) return resolve(flag);
  const fromEnv = env[STORE_ENV];
  if (fromEnv) return resolve(fromEnv);
  return join(homedir(), '.agent-memory');
}

export function openCliStore(args: ParsedArgs, snapshotOnClose: SnapshotOnClose = 'ifDue'): Promise<DurableMemoryStore> {
  return openStore({
    dir: cliStoreDir(args),
    logger: createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn'),
    config: { snapshotOnClose },
  });
}

/** Opens the store, runs `fn`, and closes the store whatever happens. */
export async function withCliStore<T>(args: ParsedArgs, fn: (store: DurableMemoryStore) => Promise<T>, snapshotOnClose: SnapshotOnClose = 'ifDue'): Promise<T> {
  const store = await openCliStore(args, snapshotOnClose);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
