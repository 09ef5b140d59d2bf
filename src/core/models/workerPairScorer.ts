/** A cross-encoder PairScorer whose model runs in a worker thread (kind 'transformers-cross-encoder'). */
import { MemoryError } from '../errors';
import type { PairScorer } from './crossEncoderReranker';
import { ModelWorkerClient } from './modelWorkerClient';
import type { WorkerScript } from './modelWorkerClient';

export interface WorkerPairScorer extends PairScorer {
  dispose(): Promise<void>;
}

export function createWorkerPairScorer(modelDir: string, options: { worker?: WorkerScript; intraOpThreads?: number } = {}): WorkerPairScorer {
  const client = new ModelWorkerClient({ kind: 'transformers-cross-encoder', modelDir, ...options });
  return {
    warmUp: () => client.start(),
    async score(query, documents) {
      const response = await client.request({ type: 'score', query, documents });
      if (response.type !== 'scores') throw new MemoryError('E_INTERNAL', 'Unexpected reply from the cross-encoder worker.');
      return response.scores;
    },
    dispose: () => client.dispose(),
  };
}
