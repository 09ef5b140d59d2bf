import type { Embedder } from '../../../src/core/models/embedder';
import { normalise } from '../../../src/core/recall/vectorMatrix';
import { wordRuns } from '../../../src/core/recall/queryTerms';

/** Deterministic test embedder: a hashed bag of words (FNV-1a into `dims` buckets), l2-normalised. */
export function fakeEmbedder(dims = 64, id = 'fake-bow'): Embedder & { vector(text: string): Float32Array } {
  const vector = (text: string): Float32Array => {
    const v = new Float32Array(dims);
    for (const w of wordRuns(text)) {
      let h = 0x811c9dc5;
      for (let i = 0; i < w.length; i++) { h ^= w.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
      v[h % dims] = (v[h % dims] as number) + 1;
    }
    return normalise(v);
  };
  return { id, dims, vector, embed: async (texts) => texts.map(vector), dispose: async () => undefined };
}
