/** Messages between WorkerEmbedder (main thread) and src/core/workers/embedWorker.ts. */
import type { MemoryErrorCode } from '../errors';

export type EmbedWorkerRequest =
  | { readonly type: 'load'; readonly modelDir: string; readonly intraOpThreads: number }
  | { readonly type: 'embed'; readonly id: number; readonly texts: readonly string[] };

export type EmbedWorkerResponse =
  | { readonly type: 'loaded'; readonly ms: number; readonly dims: number }
  | { readonly type: 'result'; readonly id: number; readonly data: Float32Array; readonly rows: number }
  | { readonly type: 'error'; readonly id: number | null; readonly code: MemoryErrorCode; readonly message: string };
