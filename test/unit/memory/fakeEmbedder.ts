import { createHash } from 'node:crypto';
import type { Embedder } from '../../../src/core/models/embedder';

/** A deterministic embedder for tests: a normalised vector derived from the text's SHA-256. */
export function fakeEmbedder(dims = 8, id = 'fake-embedder'): Embedder & { calls: number } {
  const e = {
    id, dims, calls: 0,
    async embed(texts: readonly string[]) {
      e.calls++;
      return texts.map((t) => {
        const h = createHash('sha256').update(t).digest();
        const v = new Float32Array(dims);
        for (let i = 0; i < dims; i++) v[i] = ((h[i % h.length] as number) - 128) / 128;
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
    async dispose() { /* nothing to free */ },
  };
  return e;
}
