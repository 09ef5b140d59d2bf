/**
 * `agent-memory embed [--json] [--model M] [--models DIR] TEXT...` prints one vector per text, in
 * order, from the configured embedding model. --json prints a JSON array of number arrays.
 * Models folder: --models DIR, else $AGENT_MEMORY_MODELS, else <package root>/models. Downloaded
 * hub models are looked up under --cache DIR, else $AGENT_MEMORY_CACHE, else ~/.agent-memory/cache.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { resolveModelConfig } from '../../core/config/modelConfig';
import { MemoryError } from '../../core/errors';
import { createEmbedder } from '../../core/models/createEmbedder';
import type { ModelDirs } from '../../core/models/modelPaths';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { CliCommand } from '../run';

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

export const embedCommand: CliCommand = async (args, io) => {
  const texts = args.positionals;
  if (texts.length === 0) throw new MemoryError('E_USAGE', 'embed needs at least one TEXT');
  const config = resolveModelConfig({ embeddingModel: stringFlag(args, 'model') ?? process.env[EMBEDDING_MODEL_ENV] ?? '' });
  const embedder = createEmbedder(config, cliModelDirs(args));
  try {
    const vectors = await embedder.embed(texts);
    if (args.flags.json === true) {
      io.stdout(JSON.stringify(vectors.map((v) => Array.from(v))) + '\n');
    } else {
      vectors.forEach((v, i) => {
        const head = Array.from(v.subarray(0, 4), (x) => x.toFixed(4)).join(', ');
        io.stdout(`${embedder.id} ${v.length}-d  [${head}, …]  ${(texts[i] as string).slice(0, 60)}\n`);
      });
    }
    return 0;
  } finally {
    await embedder.dispose();
  }
};
