import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../../../src/core/config/graphConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { createPipelineHandlers } from '../../../src/core/jobs/pipelineHandlers';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import { createRecordingLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { WorkerEmbedder } from '../../../src/core/models/workerEmbedder';
import { pinEntity } from '../../../src/core/pinning/pinning';
import { EXPLAIN_LEGEND, RELEVANCE_FLOOR, explainResults, explainText, splitByRelevance, withoutIds } from '../../../src/core/recall/explainText';
import { recallDetailed } from '../../../src/core/recall/recallService';
import type { Explain } from '../../../src/core/recall/recallTypes';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import * as shared from '../../../src/shared/explainLegend';
import { ensureUseLiteModel } from '../models/modelFixture';

const OLD = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
/** The first word of each stage line: a stage listed twice would repeat one. */
const STAGE_PREFIX = /^(Nearby turn|Graph|Newer first|Date named|Second look|Meaning only|Common entities only|Detail|Still current|Superseded|Newer|Covers the question|Repeats|Pinned|Other speaker|Other ranking step):/;

describe('recall explanations a person reads (explainText.ts)', function () {
  this.timeout(120_000);

  it('nets a stage that changed the score twice into one line and names the memory it refers to', () => {
    const e: Explain = {
      channels: { lexical: 0.4, semantic: 0.6, hint: 0, traversal: 0 }, fused: 0.5, sources: ['lexical', 'vector'], termsHit: 1, termCount: 2,
      boosts: [
        { stage: 'currentness', factor: 1.03, before: 0.5, seq: 1 },
        { stage: 'currentness', delta: 0.333, before: 0.515, seq: 2, memoryId: OLD, note: 'replaces a superseded memory' },
      ],
      penalties: [{ stage: 'rerank:embedding', delta: -0.05, before: 0.55, seq: 0 }],
      notes: [`[currentness] superseded by: something (memory ${OLD})`, 'also reached by graph traversal'],
      score: 0.848,
    };
    const lines = explainText(e, { best: 0.848, nameOf: (id) => (id === OLD ? 'Decision: the analytics pipeline stores events in MySQL.' : undefined) });
    assert.equal(lines.filter((l) => l.startsWith('Still current')).length, 1, lines.join('\n'));
    assert.match(lines.join('\n'), /Still current: it replaces an older memory \("Decision: the analytics pipeline stores events in MySQL\."\), so it ranks above it \(\+70%\)/);
    assert.match(lines[0] as string, /^Relevance 1\.00 of 1/);
    assert.match(lines.join('\n'), /Second look: .* moved it down \(−9\.1%\)/);
    assert.ok(lines.every((l) => !l.includes(OLD)), 'no raw id');
    assert.ok(lines.every((l) => !/traversal|hint|semantic|vector|resolution|lexical/i.test(l)), `no jargon:\n${lines.join('\n')}`);
    assert.equal(withoutIds(`see ${OLD} now`), 'see another memory now');
  });

  it('holds back results below the relevance floor, never the first', () => {
    const rs = [{ score: 0.9 }, { score: 0.5 }, { score: 0.2 }, { score: 0.01 }];
    const { shown, heldBack } = splitByRelevance(rs);
    assert.deepEqual(shown, [{ score: 0.9 }, { score: 0.5 }]);
    assert.deepEqual(heldBack, [{ score: 0.2 }, { score: 0.01 }]);
    assert.deepEqual(splitByRelevance([{ score: 0.05 }]).shown, [{ score: 0.05 }]);
  });

  it('the webview\'s legend and floor are the core\'s', () => {
    assert.deepEqual(shared.EXPLAIN_LEGEND, EXPLAIN_LEGEND);
    assert.equal(shared.RELEVANCE_FLOOR, RELEVANCE_FLOOR);
  });

  it('on a real store (write path, embedder, graph, a pin, a superseded decision): no raw id, no stage twice, no jargon', async () => {
    const embedder = new WorkerEmbedder({ modelDir: ensureUseLiteModel() });
    const now = Date.parse('2026-06-01T12:00:00Z');
    const clock = new ManualClock(now);
    const store = await openMemoryStore({ clock });
    try {
      const deps = defaultRememberDeps(clock, { enqueue: { embed: true, extract: true, hints: false } });
      const memories: [string, number][] = [
        ['Decision: the analytics pipeline stores events in MySQL.', 200],
        ['Decision: the analytics pipeline now stores events in ClickHouse instead of MySQL.', 3],
        ['The analytics dashboard refreshes every fifteen minutes.', 40],
        ['RabbitMQ runs the background job queues.', 30],
        ['Standup moved to 9:30 because of the new timezone split.', 30],
      ];
      for (const [content, days] of memories) await remember(store, { content, createdAt: new Date(now - days * 86_400_000).toISOString() }, deps);
      const logger = createRecordingLogger();
      const handlers = createPipelineHandlers({ embedder, llm: undefined, extraction: DEFAULT_EXTRACTION_CONFIG, graph: DEFAULT_GRAPH_CONFIG, logger });
      await new JobWorker({ store, handlers, config: resolveJobsConfig({}), clock, logger }).drain();
      await store.write('pin', (db) => { pinEntity(db, 'default', 'ClickHouse', new Date(now).toISOString()); });
      const ids = store.read((db) => db.all<{ id: string }>('SELECT id FROM memories UNION SELECT id FROM entities')).map((r) => r.id);
      for (const query of ['Where does the analytics pipeline currently store events?', 'which queue runs background jobs?']) {
        const out = await recallDetailed(store, { query, limit: 10 }, { clock, embedder, track: false }, true);
        const why = explainResults(out.items);
        assert.equal(why.size, out.items.length);
        for (const [id, lines] of why) {
          const text = lines.join('\n');
          for (const raw of ids) assert.ok(!text.includes(raw), `raw id ${raw} in the why of ${id}:\n${text}`);
          const stages = lines.map((l) => STAGE_PREFIX.exec(l)?.[1]).filter((s) => s !== undefined);
          assert.equal(new Set(stages).size, stages.length, `a stage listed twice:\n${text}`);
          assert.ok(!/traversal|\bhint|semantic|vector|resolution|lexical|fused|channel/i.test(text), `jargon:\n${text}`);
        }
        if (query.startsWith('Where')) {
          const top = why.get(out.items[0]?.id as string) ?? [];
          assert.match(out.items[0]?.content ?? '', /ClickHouse/);
          assert.ok(top.some((l) => l.startsWith('Still current')), top.join('\n'));
          assert.ok(top.some((l) => /^Pinned: about ClickHouse/.test(l)), top.join('\n'));
        }
      }
    } finally {
      await store.close();
      await embedder.dispose();
    }
  });
});
