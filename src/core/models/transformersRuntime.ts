/**
 * Lazy access to transformers.js with remote loading off: models are only ever read from local
 * folders (the bundled ones, a user folder, or one fetched by modelDownload.ts). Folders are passed
 * as absolute paths, which transformers.js reads directly.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors';
import { optOutOfOnnxTelemetry } from './onnxTelemetry';

/** The slice of the transformers.js API we use (its types are ESM-only, so it is described here). */
export interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(task: 'feature-extraction', model: string, options: { dtype: 'fp32' }): Promise<unknown>;
  AutoTokenizer: { from_pretrained(model: string): Promise<unknown> };
  AutoModelForSequenceClassification: { from_pretrained(model: string, options: { dtype: 'fp32' }): Promise<unknown> };
}

let loading: Promise<TransformersModule> | undefined;

export function loadTransformers(localModelPath?: string): Promise<TransformersModule> {
  // transformers.js runs its models on onnxruntime-node: its telemetry stays off (onnxTelemetry.ts).
  if (!loading) optOutOfOnnxTelemetry();
  loading ??= (import('@huggingface/transformers') as unknown as Promise<TransformersModule>).then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    return t;
  });
  return loading.then((t) => {
    if (localModelPath) t.env.localModelPath = localModelPath;
    return t;
  });
}

/** Checks the Hugging Face layout and returns the parsed config.json. */
export function readHfModelConfig(modelDir: string): Record<string, unknown> {
  const configPath = join(modelDir, 'config.json');
  if (!existsSync(configPath) || !existsSync(join(modelDir, 'tokenizer.json'))) {
    throw new MemoryError('E_MODEL_MISSING', `No model at ${modelDir} (config.json and tokenizer.json are needed).`, { modelDir });
  }
  if (!existsSync(join(modelDir, 'onnx', 'model.onnx'))) {
    throw new MemoryError('E_MODEL_MISSING', `The model at ${modelDir} has no onnx/model.onnx.`, { modelDir });
  }
  try {
    return JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new MemoryError('E_MODEL_LOAD', `The config.json of ${modelDir} is not valid JSON.`, { modelDir }, { cause: e });
  }
}
