import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveModelConfig } from '../../../src/core/config/modelConfig';
import type { ModelConfig } from '../../../src/core/config/modelConfig';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import type { LlmClient } from '../../../src/core/hostContext';
import { createLlmReranker } from '../../../src/core/models/llmReranker';
import type { Reranker } from '../../../src/core/models/rerank';
import type { RerankerSet } from '../../../src/core/models/rerankerSet';
import { createRecallReranker } from '../../../src/core/recall/createRecallReranker';
import { recallDetailed } from '../../../src/core/recall/recallService';
import type { RecallDeps } from '../../../src/core/recall/recallRequest';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { tinyBertFixture } from '../models/tinyBertFixture';
import { fakeEmbedder } from './fakeEmbedder';
import { RERANK_QUERY, reranked, seedRerankStore } from './rerankStore';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
const dirs = { bundledModelsDir: '/nonexistent', cacheDir: '/nonexistent' };
const emb = fakeEmbedder();
// The rerank stage is off by default (docs/recall-design.md, "Sixth round"): these cases switch it on.
const config = resolveSearchConfig({ rerank: { enabled: true } });
describe('the configured reranker in recall (models.rerankProvider, rerankTopN, rerankTimeoutMs)', function () {
  this.timeout(60_000);
  let store: MemoryStore;
  const sets: RerankerSet[] = [];
  const make = (models: Partial<ModelConfig>, llm?: LlmClient): RerankerSet => {
    const set = createRecallReranker(resolveModelConfig(models), { dirs, ...(llm ? { llm } : {}) });
    sets.push(set);
    return set;
  };
  const run = (deps: Partial<RecallDeps>) => recallDetailed(store, { query: RERANK_QUERY, limit: 9 }, { clock, config, embedder: emb, track: false, ...deps });

  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await seedRerankStore(store, emb);
  });
  afterEach(async () => {
    for (const s of sets.splice(0)) await s.dispose();
    await store.close();
  });

  it('crossEncoder builds the cross-encoder and reranks only its head (6) with a real ONNX pair scorer', async () => {
    const set = make({ rerankProvider: 'crossEncoder', crossEncoderModel: await tinyBertFixture() });
    await set.warmUp();
    const out = await run({ rerankers: set });
    const changed = reranked(out);
    assert.ok(changed.length > 0, 'the cross-encoder changed scores');
    assert.ok(out.items.flatMap((r) => [...(r.explain?.boosts ?? []), ...(r.explain?.penalties ?? [])]).some((a) => a.stage === 'rerank:crossEncoder'));
    const plain = await run({ config: resolveSearchConfig({ rerank: { enabled: false } }) });
    const tail = plain.items.slice(6).map((r) => r.id);
    assert.ok(changed.every((id) => !tail.includes(id)), 'nothing outside the head of 6 was rescored');
  });

  it('a missing cross-encoder keeps the fused order and says why in the notes and the explanation', async () => {
    const set = make({ rerankProvider: 'crossEncoder', crossEncoderModel: 'org/missing' });
    const out = await run({ rerankers: set });
    const plain = await run({ config: resolveSearchConfig({ rerank: { enabled: false } }) });
    assert.deepEqual(out.items.map((r) => r.id), plain.items.map((r) => r.id));
    assert.match(out.notes.join('\n'), /reranker crossEncoder failed \(No cross-encoder model is configured\.\); original order kept/);
    assert.match(out.items[0]?.explain?.notes.join('\n') ?? '', /^rerank: reranker crossEncoder failed/m);
  });

  it('models.rerankTopN bounds what is reranked', async () => {
    const all = await run({ rerankers: make({ rerankProvider: 'embedding', rerankTopN: 20 }) });
    assert.ok(reranked(all).length > 3);
    const head = await run({ rerankers: make({ rerankProvider: 'embedding', rerankTopN: 3 }) });
    assert.ok(reranked(head).length > 0 && reranked(head).length <= 3, `${reranked(head).length} reranked`);
    assert.equal(make({ rerankProvider: 'none' }).forQuery({}).id, 'none');
  });

  it('models.rerankTimeoutMs: a reranker slower than the timeout yields the original order', async () => {
    const set = make({ rerankProvider: 'embedding', rerankTimeoutMs: 50 });
    const slow: Reranker = { id: 'slow', rerank: (_q, head) => new Promise((resolve) => setTimeout(() => resolve([...head].reverse()), 400)) };
    const out = await run({ rerankers: { forQuery: () => slow, options: () => set.options() } });
    const plain = await run({ config: resolveSearchConfig({ rerank: { enabled: false } }) });
    assert.deepEqual(out.items.map((r) => r.id), plain.items.map((r) => r.id));
    assert.match(out.notes.join('\n'), /reranker slow timed out after 50 ms; original order kept/);
  });

  it('the LLM reranker scores in the background and blends into the next recall of the query', async () => {
    let calls = 0;
    // A scripted model slower than the interactive timeout: it ranks the head in reverse, 0.9 down.
    const llm: LlmClient = {
      label: 'scripted',
      complete: async (prompt) => {
        calls++;
        await new Promise((r) => setTimeout(r, 200));
        const n = prompt.split('\n').filter((l) => /^\[\d+\]/.test(l)).length;
        return JSON.stringify(Array.from({ length: n }, (_, i) => ({ index: n - i, score: 0.9 - i * 0.1 })));
      },
    };
    // Before: the LLM reranker under the interactive deadline never applies.
    const inline = await run({ reranker: createLlmReranker(llm), config: resolveSearchConfig({ rerank: { enabled: true, timeoutMs: 50 } }) });
    assert.match(inline.notes.join('\n'), /reranker llm:scripted timed out after 50 ms/);
    const set = make({ rerankProvider: 'llm', rerankTimeoutMs: 50, rerankTopN: 5 }, llm);
    const first = await run({ rerankers: set });
    assert.match(first.notes.join('\n'), /reranker llm:scripted: scoring in the background, blended into the next recall of this query/);
    await set.settled();
    const second = await run({ rerankers: set });
    assert.equal(calls, 2, 'one inline call, one background call');
    assert.deepEqual(second.notes, []);
    const fused = new Map(first.items.map((r) => [r.id, r.explain?.fused ?? 0]));
    const head = first.items.slice(0, 5).map((r) => r.id);
    // The model put the fifth first at 0.9: blended = 0.5 · fused + 0.5 · 0.9, no longer the fused score alone.
    const top = second.items.find((r) => r.id === head[4]);
    const adj = [...(top?.explain?.boosts ?? []), ...(top?.explain?.penalties ?? [])].find((a) => a.stage === 'rerank:llm:scripted');
    assert.ok(adj, 'the LLM score was applied');
    const blended = 0.5 * (fused.get(head[4] as string) ?? 0) + 0.5 * 0.9;
    assert.ok(Math.abs((adj.delta ?? 0) - (blended - (fused.get(head[4] as string) ?? 0))) < 1e-6);
    assert.notDeepEqual(second.items.slice(0, 5).map((r) => r.id), head);
  });
});
