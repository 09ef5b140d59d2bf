/**
 * `agent-memory embed [--json] [--model M] [--models DIR] TEXT...` prints one vector per text, in
 * order, from the configured embedding model. --json prints a JSON array of number arrays.
 * Models folder: --models DIR, else $AGENT_MEMORY_MODELS, else <package root>/models. Downloaded
 * hub models are looked up under --cache DIR, else $AGENT_MEMORY_CACHE, else ~/.agent-memory/cache.
 */
import { MemoryError } from '../../core/errors';
import { createEngineEmbedder } from '../../core/engine/engineModels';
import { stringFlag } from '../args';
import { cliModelDirs } from '../cliModelDirs';
import { cliEngineConfig } from '../openCliStore';
import type { CliCommand } from '../run';

export const embedCommand: CliCommand = async (args, io) => {
  const texts = args.positionals;
  if (texts.length === 0) throw new MemoryError('E_USAGE', 'embed needs at least one TEXT');
  // The embedding model the engine runs on with the CLI's settings (--model names another).
  const model = stringFlag(args, 'model');
  const embedder = createEngineEmbedder(cliEngineConfig(args, model ? { 'models.embeddingModel': model } : {}), cliModelDirs(args));
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
