/**
 * Child of onnxTelemetry.test.ts: loads the USE-lite model in a fresh process, either the way the
 * engine does ('engine': a WorkerEmbedder, so ONNX Runtime starts in the model worker thread) or
 * bare ('bare': onnxruntime-node on the main thread, with nothing set), then prints "done".
 */
import { join } from 'node:path';
import { WorkerEmbedder } from '../../../src/core/models/workerEmbedder';

async function main(): Promise<void> {
  const [mode, modelDir] = process.argv.slice(2) as [string, string];
  if (mode === 'engine') {
    const embedder = new WorkerEmbedder({ modelDir });
    await embedder.embed(['does the runtime phone home?']);
    await embedder.dispose();
  } else {
    const ort = await import('onnxruntime-node');
    await ort.InferenceSession.create(join(modelDir, 'onnx', 'model.onnx'));
  }
  console.log('done');
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
