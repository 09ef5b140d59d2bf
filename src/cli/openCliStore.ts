/**
 * How CLI commands reach the store: `--store DIR`, else $AGENT_MEMORY_STORE, else ~/.agent-memory.
 * The CLI is short-lived, so it snapshots on close only when one is due (the journal keeps
 * everything durable in between), and always closes the store, also on errors. Every command that
 * opens the store runs on the resolved configuration (cliSettings.ts: --set, environment,
 * <store>/config.json, defaults), resolved before the store opens so a bad value changes nothing.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MemorySettings } from '../core/config/memorySettings';
import { createStreamLogger } from '../core/logger';
import { openStore } from '../core/store/openStore';
import type { DurableMemoryStore } from '../core/store/durableStore';
import { stringFlag } from './args';
import type { ParsedArgs } from './args';
import { resolveCliSettings } from './cliSettings';

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

/** Resolves the configuration, opens the store, runs `fn`, and closes the store whatever happens. */
export async function withCliStore<T>(args: ParsedArgs, fn: (store: DurableMemoryStore, settings: MemorySettings) => Promise<T>): Promise<T> {
  const { settings } = resolveCliSettings(args, cliStoreDir(args));
  const store = await openCliStore(args);
  try {
    return await fn(store, settings);
  } finally {
    await store.close();
  }
}
