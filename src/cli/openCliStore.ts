/**
 * How CLI commands reach the store: `--store DIR`, else $AGENT_MEMORY_STORE, else ~/.agent-memory.
 * Commands that read or write the store directly use `withCliStore`; commands that run the models,
 * jobs, recall or sessions open the core's engine with `withCliEngine`, on `cliEngineConfig` —
 * the same composition the extension runs. Both run on the resolved configuration (cliSettings.ts:
 * --set, environment, <store>/config.json, defaults), resolved before the store opens so a bad
 * value changes nothing. The CLI is short-lived, so it snapshots on close only when one is due
 * (the journal keeps everything durable in between), and always closes the store, also on errors.
 * Commands that only read (`stats`) never snapshot: a snapshot due because of other processes'
 * writes is not their work and cost `stats` seconds at 10k memories; a long `recall --stdin`
 * session snapshots on close so the next command does not replay its bookkeeping (docs/store.md,
 * "Measured: recall as users run it").
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { systemClock } from '../core/clock';
import type { EngineSettings } from '../core/engine/engineConfig';
import { defaultEngineSettings } from '../core/engine/engineConfig';
import type { EmbedderFactory } from '../core/engine/engineModels';
import { MemoryEngine } from '../core/engine/memoryEngine';
import type { HostContext, LlmClient } from '../core/hostContext';
import type { MemorySettings } from '../core/config/memorySettings';
import { createStreamLogger } from '../core/logger';
import type { SnapshotOnClose } from '../core/config/storeConfig';
import { openStore } from '../core/store/openStore';
import type { DurableMemoryStore } from '../core/store/durableStore';
import { stringFlag } from './args';
import type { ParsedArgs } from './args';
import { cliLlm } from './cliLlm';
import { envSecretStore } from './envSecrets';
import { cliJobProgress } from './cliSettle';
import { EMBEDDING_MODEL_ENV, cliModelDirs } from './cliModelDirs';
import type { CliIo } from './run';
import { envVarFor, resolveCliSettings } from './cliSettings';
import { statSync } from 'node:fs';
import { resolveExtractionConfig } from '../core/config/extractionConfig';
import type { WorkspaceNames } from '../core/config/extractionConfig';
import { readWorkspaceNames } from '../core/extraction/workspaceNames';
import { MemoryError } from '../core/errors';

export const STORE_ENV = 'AGENT_MEMORY_STORE';

/** The `store.path` setting from the layers that exist before a store is chosen: --set, then the environment. */
function storePathSetting(args: ParsedArgs, env: NodeJS.ProcessEnv): string | undefined {
  const set = [...(args.sets ?? [])].reverse().map((p) => /^(?:agentMemory\.)?store\.path=(.*)$/.exec(p.trim())?.[1]).find((v) => v !== undefined);
  const value = set ?? env[envVarFor('store.path')];
  return value?.trim() ? value.trim() : undefined;
}

/**
 * The store folder: --store DIR, else $AGENT_MEMORY_STORE, else the `store.path` setting (from
 * --set or AGENT_MEMORY_STORE_PATH; config.json lives inside the store, so it cannot choose it),
 * else ~/.agent-memory.
 */
export function cliStoreDir(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): string {
  const flag = stringFlag(args, 'store');
  if (flag) return resolve(flag);
  const fromEnv = env[STORE_ENV];
  if (fromEnv) return resolve(fromEnv);
  const setting = storePathSetting(args, env);
  if (setting) return resolve(setting);
  return join(homedir(), '.agent-memory');
}

export function openCliStore(args: ParsedArgs, snapshotOnClose: SnapshotOnClose = 'ifDue'): Promise<DurableMemoryStore> {
  return openStore({
    dir: cliStoreDir(args),
    logger: createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn'),
    config: { snapshotOnClose },
  });
}

/** Resolves the configuration, opens the store, runs `fn`, and closes the store whatever happens. */
export async function withCliStore<T>(args: ParsedArgs, fn: (store: DurableMemoryStore, settings: MemorySettings) => Promise<T>, snapshotOnClose: SnapshotOnClose = 'ifDue'): Promise<T> {
  const { settings } = resolveCliSettings(args, cliStoreDir(args));
  const store = await openCliStore(args, snapshotOnClose);
  try {
    return await fn(store, settings);
  } finally {
    await store.close();
  }
}

export interface CliEngineOptions {
  /** Embedding model factory (tests pass a fake; default: the configured model, the bundled USE-lite). */
  readonly embedder?: EmbedderFactory;
  /** LLM factory (tests, commands that never use one); default: the llm.* settings (cliLlm.ts). */
  readonly llm?: (args: ParsedArgs) => LlmClient | undefined;
  /** This command's own policy settings (`agentMemory.` keys without the prefix), over the CLI's. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** When closing snapshots the store (default 'ifDue'; a long `recall --stdin` session passes 'always'). */
  readonly snapshotOnClose?: SnapshotOnClose;
}

/**
 * `--workspace DIR`: the folder's names (dependencies of its manifests, file and folder names) as
 * the extraction gazetteer (src/core/extraction/workspaceNames.ts, docs/extraction.md).
 */
export function cliWorkspaceNames(args: ParsedArgs): WorkspaceNames | undefined {
  const dir = args.flags.workspace;
  if (dir === undefined) return undefined;
  if (dir === true || !dir.trim()) throw new MemoryError('E_USAGE', '--workspace needs a folder, e.g. --workspace .');
  const abs = resolve(dir);
  let isDir = false;
  try { isDir = statSync(abs).isDirectory(); } catch { isDir = false; }
  if (!isDir) throw new MemoryError('E_USAGE', `--workspace: no folder at ${abs}`);
  return readWorkspaceNames(abs);
}

/** Commands that never call a language model (recall, sessions, maintenance run as the CLI always has: without one). */
export const noCliLlm = (): undefined => undefined;

/**
 * The settings a CLI command runs on: the resolved configuration (--set > AGENT_MEMORY_<KEY> >
 * <store>/config.json > default), plus the CLI's policies where the user set nothing (the store
 * folder from --store / $AGENT_MEMORY_STORE, the embedding model from $AGENT_MEMORY_EMBEDDING_MODEL)
 * and the command's own. Keys are the `agentMemory.*` setting names without the prefix, so the
 * engine reads them exactly as the extension reads VS Code settings.
 */
export function cliEngineConfig(args: ParsedArgs, overrides: Readonly<Record<string, unknown>> = {}, env: NodeJS.ProcessEnv = process.env): EngineSettings {
  const storeDir = cliStoreDir(args, env);
  const model = env[EMBEDDING_MODEL_ENV];
  const policies: Record<string, unknown> = { ...(model ? { 'models.embeddingModel': model } : {}), ...overrides };
  const byKey = new Map<string, unknown>();
  for (const e of resolveCliSettings(args, storeDir, env).entries) {
    byKey.set(e.key, e.source === 'default' && e.key in policies ? policies[e.key] : e.value);
  }
  // The store is the one chosen above (its config.json was read): a store.path in that file cannot move it.
  byKey.set('store.path', storeDir);
  const settings = defaultEngineSettings((key) => (byKey.has(key) ? byKey.get(key) : policies[key]));
  const workspace = cliWorkspaceNames(args);
  return workspace ? { ...settings, extraction: resolveExtractionConfig({ ...settings.extraction, workspace }) } : settings;
}

/** The CLI's engine: on-demand jobs (a command finishes its work with `settleCli`), snapshots on close only when due. */
export async function openCliEngine(args: ParsedArgs, io: CliIo, options: CliEngineOptions = {}): Promise<MemoryEngine> {
  const settings = cliEngineConfig(args, options.settings);
  const logger = createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn', (l) => io.stderr(l + '\n'));
  const secrets = envSecretStore();
  const llm = options.llm ? options.llm(args) : (await cliLlm(args, settings.llm, secrets, io.stderr)).client;
  const host: HostContext = { paths: { storeDir: settings.storePath, ...cliModelDirs(args) }, logger, clock: systemClock, llm, progress: cliJobProgress(io), secrets };
  return MemoryEngine.open(host, settings, { mode: 'onDemand', leaseLabel: 'cli', store: { snapshotOnClose: options.snapshotOnClose ?? 'ifDue' }, ...(options.embedder ? { embedder: options.embedder } : {}) });
}

/** Opens the engine, runs `fn`, and closes it whatever happens. */
export async function withCliEngine<T>(args: ParsedArgs, io: CliIo, options: CliEngineOptions, fn: (engine: MemoryEngine) => Promise<T>): Promise<T> {
  const engine = await openCliEngine(args, io, options);
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
