/**
 * Builds the embedder a model setting names, always in a worker thread (WorkerEmbedder): the
 * bundled USE-lite folder on ONNX Runtime, any other Hugging Face folder through transformers.js.
 * Nothing is loaded until the first embed().
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ModelConfig } from '../config/modelConfig';
import type { Embedder } from './embedder';
import { isHubModelId, resolveModelDir } from './modelPaths';
import type { ModelDirs } from './modelPaths';
import { hfModelDims } from './transformersEmbedder';
import { readHfModelConfig } from './transformersRuntime';
import { MemoryError } from '../errors';
import { isPackedTarget, packedManifestFor } from './packedAssets';
import { WorkerEmbedder } from './workerEmbedder';
import type { WorkerScript } from './modelWorkerClient';

export interface CreateEmbedderOptions {
  /** Worker script override (tests, packaging). */
  readonly worker?: WorkerScript;
}

function isUseLiteFolder(dir: string): boolean {
  try {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { model_type?: unknown };
    return config.model_type === 'use-lite';
  } catch {
    return false;
  }
}

/** The id stored with vectors: the hub id or bundled name as configured, else the folder name. */
export function embeddingModelId(spec: string, dir: string): string {
  const s = spec.trim();
  if (isHubModelId(s) || (!s.includes('/') && !s.includes('\\') && !s.startsWith('.') && !s.startsWith('~') && s !== '')) return s;
  return basename(dir);
}

export function createEmbedder(config: Pick<ModelConfig, 'embeddingModel' | 'embedBatchSize' | 'intraOpThreads'>, dirs: ModelDirs, options: CreateEmbedderOptions = {}): Embedder {
  const dir = resolveModelDir(config.embeddingModel, dirs);
  const id = embeddingModelId(config.embeddingModel, dir);
  const common = { modelDir: dir, id, batchSize: config.embedBatchSize, intraOpThreads: config.intraOpThreads, ...(options.worker ? { worker: options.worker } : {}) };
  if (isUseLiteFolder(dir)) {
    // The bundled model's folder ships its config; the ONNX file is built (scripts/build.mjs). Without
    // it there is no model to load, so say so now instead of failing every embed job later.
    // A platform VSIX ships it packed; the worker unpacks it on first load (packedAssets.ts).
    const onnx = join(dir, 'onnx', 'model.onnx');
    if (!existsSync(onnx) && !isPackedTarget(packedManifestFor(dirs.bundledModelsDir), onnx)) throw new MemoryError('E_MODEL_MISSING', `The bundled embedding model in ${dir} is not built (no onnx/model.onnx).`);
    return new WorkerEmbedder(common);
  }
  return new WorkerEmbedder({ ...common, kind: 'transformers-embedding', dims: hfModelDims(readHfModelConfig(dir)) });
}
