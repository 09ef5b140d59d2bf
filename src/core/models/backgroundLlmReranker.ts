/**
 * The LLM reranker outside the interactive deadline (docs/recall-design.md "rerank"). A language
 * model takes seconds, far more than a recall may wait, so scoring runs in the background under
 * its own budget and lands in the next recall of the same query:
 *  - a recall whose head has LLM scores for this query blends them at once:
 *    `(1 − blend) · fused + blend · relevance` (a candidate the model left out of its ranking
 *    counts as relevance 0); the fused score is never replaced;
 *  - head candidates without a score are sent to the model in the background (one call per query
 *    at a time, `budgetMs` each); until some score exists the recall keeps the fused order and says
 *    so (RerankDeferred → rerank() status 'deferred').
 * Scores are kept per normalised query for the last `maxQueries` queries.
 */
import { DEFAULT_LLM_RERANK_BLEND, DEFAULT_LLM_RERANK_BUDGET_MS } from '../config/modelConfig';
import type { LlmClient } from '../hostContext';
import { createLlmReranker } from './llmReranker';
import { RerankDeferred } from './rerank';
import type { RerankCandidate, Reranker } from './rerank';

export interface BackgroundLlmRerankerOptions {
  /** Budget of one background model call (ms). */
  readonly budgetMs?: number;
  /** Weight of the model's relevance in the blended score. */
  readonly blend?: number;
  /** Queries whose scores are kept. */
  readonly maxQueries?: number;
}

export interface BackgroundLlmReranker extends Reranker {
  /** Resolves when every background call started so far has finished (tests, benches). */
  settled(): Promise<void>;
  /** Aborts background calls and forgets the scores. */
  dispose(): void;
}

const DEFAULT_MAX_QUERIES = 100;

function queryKey(query: string): string {
  return query.trim().toLowerCase().replace(/\s+/g, ' ');
}

export function createBackgroundLlmReranker(llm: LlmClient, options: BackgroundLlmRerankerOptions = {}): BackgroundLlmReranker {
  const budgetMs = options.budgetMs ?? DEFAULT_LLM_RERANK_BUDGET_MS;
  const blend = options.blend ?? DEFAULT_LLM_RERANK_BLEND;
  const maxQueries = options.maxQueries ?? DEFAULT_MAX_QUERIES;
  const direct = createLlmReranker(llm);
  /** Query key → memory id → relevance 0..1 (Map order = least recently used first). */
  const scored = new Map<string, Map<string, number>>();
  const pending = new Map<string, Promise<void>>();
  const lastError = new Map<string, string>();
  const controllers = new Set<AbortController>();

  const remember = (key: string, scores: Map<string, number>): void => {
    scored.delete(key);
    scored.set(key, scores);
    while (scored.size > maxQueries) scored.delete(scored.keys().next().value as string);
  };

  const schedule = (key: string, query: string, missing: readonly RerankCandidate[]): void => {
    if (pending.has(key) || missing.length === 0) return;
    const controller = new AbortController();
    controllers.add(controller);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<never>((_, reject) => {
      timer = setTimeout(() => { controller.abort(); reject(new Error(`no answer within ${budgetMs} ms`)); }, budgetMs);
    });
    const run = (async () => {
      try {
        const work = direct.rerank(query, missing, { topN: missing.length, timeoutMs: budgetMs, signal: controller.signal });
        work.catch(() => undefined);
        const ranked = await Promise.race([work, budget]);
        const scores = new Map(scored.get(key) ?? []);
        for (const c of missing) scores.set(c.id, 0);
        for (const c of ranked) if (Number.isFinite(c.score)) scores.set(c.id, Math.min(1, Math.max(0, c.score)));
        remember(key, scores);
        lastError.delete(key);
      } catch (e) {
        lastError.set(key, e instanceof Error ? e.message : String(e));
      } finally {
        if (timer) clearTimeout(timer);
        controllers.delete(controller);
        pending.delete(key);
      }
    })();
    pending.set(key, run);
  };

  return {
    id: direct.id,
    async rerank(query, head) {
      const key = queryKey(query);
      const scores = scored.get(key);
      const missing = head.filter((c) => !scores?.has(c.id));
      const failed = lastError.get(key);
      schedule(key, query, missing);
      if (!scores || missing.length === head.length) {
        throw new RerankDeferred(failed !== undefined
          ? `the last background scoring of this query failed (${failed}); trying again for the next recall`
          : 'scoring in the background, blended into the next recall of this query');
      }
      remember(key, scores);
      return head
        .map((c, index) => {
          const relevance = scores.get(c.id);
          return { c: relevance === undefined ? c : { ...c, score: (1 - blend) * c.score + blend * relevance }, index };
        })
        .sort((a, b) => b.c.score - a.c.score || a.index - b.index)
        .map((x) => x.c);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending.values()]);
    },
    dispose() {
      for (const c of controllers) c.abort();
      scored.clear();
      lastError.clear();
    },
  };
}
