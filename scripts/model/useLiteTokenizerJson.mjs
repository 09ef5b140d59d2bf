// Writes the USE-lite sentencepiece vocabulary as a Hugging Face tokenizers `tokenizer.json`
// (Unigram model). Our TypeScript tokenizer (src/core/models/useLiteTokenizer.ts) reads this file
// and reproduces the TF.js loader exactly; the fields below also let HF tooling open it.
// Scores that are null in vocab.json (the ":" pieces) become 0, which is what TF.js arithmetic does
// with them (null + x === x).

export const MAX_POSITIONS = 128;

export function tokenizerJson(vocab) {
  return {
    version: '1.0',
    truncation: { direction: 'Right', max_length: MAX_POSITIONS, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: vocab.slice(0, 6).map(([content], id) => ({
      id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: { type: 'NFKC' },
    pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: false },
    post_processor: null,
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: false },
    model: { type: 'Unigram', unk_id: 0, byte_fallback: false, vocab: vocab.map(([piece, score]) => [piece, score ?? 0]) },
  };
}

export function tokenizerConfigJson() {
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    model_max_length: MAX_POSITIONS,
    unk_token: '\uFFFD',
    bos_token: '<s>',
    eos_token: '</s>',
    pad_token: '\uFFFD',
    clean_up_tokenization_spaces: false,
    agent_memory: {
      tokenizer: 'use-lite-sentencepiece',
      reserved_ids: 6,
      note: 'Tokenise with the TF.js-compatible Viterbi (ties: later candidate wins; consecutive unknowns merge; first 128 ids kept). Padding id for the ONNX graph is -1.',
    },
  };
}
