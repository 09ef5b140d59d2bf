/**
 * The query adapter's fold weights (bench/trainQueryAdapter.ts writes them to
 * bench/results/queryAdapter.json): for each development conversation, the adapter fitted on the
 * other four. The held-out runs of bench/trainOrder.ts and bench/quality.ts use them so that no
 * conversation is recalled with an adapter that saw its questions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeQueryAdapter } from '../src/core/recall/queryAdapter';
import type { EncodedQueryAdapter, QueryAdapter } from '../src/core/recall/queryAdapter';

export const QUERY_ADAPTER_RESULTS = join(__dirname, 'results', 'queryAdapter.json');

/** Conversation id → its held-out adapter, or why there are none. */
export function loadQueryAdapterFolds(): Map<string, QueryAdapter> | { absent: string } {
  if (!existsSync(QUERY_ADAPTER_RESULTS)) return { absent: 'bench/results/queryAdapter.json is missing (run bench/trainQueryAdapter.ts)' };
  const folds = (JSON.parse(readFileSync(QUERY_ADAPTER_RESULTS, 'utf8')) as { folds?: Record<string, { adapter: EncodedQueryAdapter }> }).folds ?? {};
  return new Map(Object.entries(folds).map(([id, f]) => [id, decodeQueryAdapter(f.adapter)]));
}
