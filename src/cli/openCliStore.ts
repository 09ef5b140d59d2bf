/**
 * How CLI commands reach the store: `--store DIR`, else $AGENT_MEMORY_STORE, else ~/.agent-memory.
 * The CLI is short-lived, so it snapshots on close only when one is due (the journal keeps
 * everything durable in between), and always closes the store, also on errors.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createStreamLogger } from '../core/logger';
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

export function openCliStore(args: ParsedArgs): Promise<DurableMemoryStore> {
  return openStore({
    dir: cliStoreDir(args),
    logger: createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn'),
    config: { snapshotOnClose: 'ifDue' },
  });
}

/** Opens the store, runs `fn`, and closes the store whatever happens. */
export async function withCliStore<T>(args: ParsedArgs, fn: (store: DurableMemoryStore) => Promise<T>): Promise<T> {
  const store = await openCliStore(args);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
