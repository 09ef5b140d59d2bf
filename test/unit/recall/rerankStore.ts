/**
 * A store of nine memories that all match one query about a deploy port, with their vectors from
 * the fake embedder: the head is long enough that rerank top-N, timeouts and providers show.
 * Shared by the reranker tests and the rerank settings' contract.
 */
import type { RecallOutcome } from '../../../src/core/recall/recallService';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import type { fakeEmbedder } from './fakeEmbedder';
import { insertMemory, insertVector, seed } from './recallDb';

export const RERANK_QUERY = 'deploy port server';

const TEXTS = [
  'The deploy port of the server is 8443.', 'Deploy the server on port 9000 tomorrow.', 'The server port for deploy checks is 7000.',
  'Our deploy uses the server port from config.', 'A deploy to the server needs port 22 open.', 'The server deploy port changed last week.',
  'Port and server settings for the deploy job.', 'The deploy server listens on one port.', 'Server port notes for the next deploy.',
];

/** Writes the nine memories (ids m0…m8) and their vectors. */
export function seedRerankStore(store: MemoryStore, emb: ReturnType<typeof fakeEmbedder>): Promise<void> {
  return seed(store, (w) => TEXTS.forEach((content, i) => {
    insertMemory(w, { id: `m${i}`, content });
    insertVector(w, `m${i}`, emb.vector(content), emb.id);
  }));
}

/** Ids of the results a reranker rescored, in rank order. */
export function reranked(out: RecallOutcome): string[] {
  return out.items.filter((r) => [...(r.explain?.boosts ?? []), ...(r.explain?.penalties ?? [])].some((a) => a.stage.startsWith('rerank:'))).map((r) => r.id);
}
