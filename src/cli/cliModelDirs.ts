/**
 * Where the CLI finds models: the bundled models folder (--models DIR, else $AGENT_MEMORY_MODELS,
 * else <package root>/models) and the cache of downloaded hub models (--cache DIR, else
 * $AGENT_MEMORY_CACHE, else ~/.agent-memory/cache).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ModelDirs } from '../core/models/modelPaths';
import { stringFlag } from './args';
import type { ParsedArgs } from './args';

export const MODELS_DIR_ENV = 'AGENT_MEMORY_MODELS';
export const MODEL_CACHE_ENV = 'AGENT_MEMORY_CACHE';
export const EMBEDDING_MODEL_ENV = 'AGENT_MEMORY_EMBEDDING_MODEL';

/** The nearest folder above `from` holding this package's package.json. */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'agent-memory') return dir;
      } catch { /* not ours; keep looking */ }
    }
    if (dirname(dir) === dir) return resolve(from, '..');
  }
}

export function cliModelDirs(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): ModelDirs {
  const models = stringFlag(args, 'models') ?? env[MODELS_DIR_ENV];
  const cache = stringFlag(args, 'cache') ?? env[MODEL_CACHE_ENV];
  return {
    bundledModelsDir: models ? resolve(models) : join(packageRoot(), 'models'),
    cacheDir: cache ? resolve(cache) : join(homedir(), '.agent-memory', 'cache'),
  };
}
