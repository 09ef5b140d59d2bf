/** Messages between ModelWorkerClient (main thread) and src/core/workers/embedWorker.ts. */
import type { MemoryErrorCode } from '../errors';

/** What the worker hosts: the bundled USE-lite graph, or a transformers.js model folder. */
export type ModelWorkerKind = 'use-lite' | 'transformers-embedding' | 'transformers-cross-encoder';

export type EmbedWorkerRequest =
  | { readonly type: 'load'; readonly kind: ModelWorkerKind; readonly modelDir: string; readonly intraOpThreads: number }
  | { readonly type: 'embed'; readonly id: number; readonly texts: readonly string[] }
  | { readonly type: 'score'; readonly id: number; readonly query: string; readonly documents: readonly string[] };

export type EmbedWorkerResponse =
  | { readonly type: 'loaded'; readonly ms: number; readonly dims: number }
  | { readonly type: 'result'; readonly id: number; readonly data: Float32Array; readonly rows: number }
  | { readonly type: 'scores'; readonly id: number; readonly scores: readonly number[] }
  | { readonly type: 'error'; readonly id: number | null; readonly code: MemoryErrorCode; readonly message: string };
