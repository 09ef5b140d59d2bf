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
import { recallDetailed } from '../../../src/core/recall/recallService';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { ensureUseLiteModel } from '../models/modelFixture';

/**
 * Small stores (5–50 memories) where a person sees at once which memory answers: the default
 * pipeline, with the real default embedder and the graph built by the write path's jobs, must rank
 * that memory first. Each case is a table row; `days` is the memory's age when the question comes.
 */
interface Row { content: string; days?: number }
interface Case { name: string; memories: Row[]; query: string; answer: string }

const FILLER: Row[] = [
  { content: 'The design review for the onboarding flow is on Thursday afternoon.' },
  { content: 'Release notes are drafted in the wiki before every sprint demo.' },
  { content: 'The office coffee machine was replaced with an espresso maker.' },
  { content: 'Unit tests run on every pull request in the CI pipeline.' },
  { content: 'The marketing site is a static build deployed by the web team.' },
  { content: 'Standup moved to 9:30 because of the new timezone split.' },
  { content: 'Error budgets are reviewed at the monthly reliability meeting.' },
  { content: 'The mobile app supports dark mode since version 3.2.' },
];

const CASES: Case[] = [
  {
    name: 'the billing service\'s database, not the memory that names the service most',
    memories: [
      { content: 'The billing service runs on Kubernetes in the eu-west cluster.' },
      { content: 'We chose PostgreSQL for the billing service because invoices need transactions.' },
      { content: 'The billing service sends invoice emails every Monday morning.' },
      { content: 'The billing service is owned by the payments team.' },
      { content: 'The billing service writes its logs to Loki.' },
    ],
    query: 'which database does the billing service use?',
    answer: 'We chose PostgreSQL for the billing service because invoices need transactions.',
  },
  {
    name: 'a person asked about by name',
    memories: [
      ...FILLER,
      { content: 'Marco maintains the deployment scripts and the staging cluster.' },
      { content: 'Priya Raman leads the search team and owns the ranking roadmap.' },
      { content: 'Dana from support collects the weekly bug reports.' },
      { content: 'The search team meets on Wednesdays to review relevance metrics.' },
    ],
    query: 'Who is Priya?',
    answer: 'Priya Raman leads the search team and owns the ranking roadmap.',
  },
  {
    name: 'a decision superseded by a newer one',
    memories: [
      ...FILLER.slice(0, 5),
      { content: 'Decision: the analytics pipeline stores events in MySQL.', days: 200 },
      { content: 'Decision: the analytics pipeline now stores events in ClickHouse instead of MySQL.', days: 3 },
      { content: 'The analytics dashboard refreshes every fifteen minutes.', days: 40 },
    ],
    query: 'Where does the analytics pipeline currently store events?',
    answer: 'Decision: the analytics pipeline now stores events in ClickHouse instead of MySQL.',
  },
  {
    name: 'a question that shares no word with its answer',
    memories: [
      ...FILLER,
      { content: 'To set up a development machine: install Node 20, clone the repository, run npm install, then npm start.' },
      { content: 'The billing service sends invoice emails every Monday morning.' },
      { content: 'Priya Raman leads the search team and owns the ranking roadmap.' },
    ],
    query: 'How should I prepare a fresh laptop for coding on this?',
    answer: 'To set up a development machine: install Node 20, clone the repository, run npm install, then npm start.',
  },
];

describe('recall on small stores ranks the obvious answer first', function () {
  this.timeout(120_000);
  let embedder: WorkerEmbedder;
  before(() => { embedder = new WorkerEmbedder({ modelDir: ensureUseLiteModel() }); });
  after(async () => { await embedder.dispose(); });

  for (const c of CASES) {
    it(c.name, async () => {
      const now = Date.parse('2026-06-01T12:00:00Z');
      const clock = new ManualClock(now);
      const store = await openMemoryStore({ clock });
      try {
        const deps = defaultRememberDeps(clock, { enqueue: { embed: true, extract: true, hints: false } });
        for (const m of c.memories) await remember(store, { content: m.content, createdAt: new Date(now - (m.days ?? 30) * 86_400_000).toISOString() }, deps);
        const logger = createRecordingLogger();
        const handlers = createPipelineHandlers({ embedder, llm: undefined, extraction: DEFAULT_EXTRACTION_CONFIG, graph: DEFAULT_GRAPH_CONFIG, logger });
        const stats = await new JobWorker({ store, handlers, config: resolveJobsConfig({}), clock, logger }).drain();
        assert.equal(stats.dead, 0);
        const out = await recallDetailed(store, { query: c.query, limit: 5 }, { clock, embedder, track: false }, true);
        assert.equal(out.items[0]?.content, c.answer, `ranked:\n${out.items.map((r) => `${r.score.toFixed(3)} ${r.content} ${JSON.stringify(r.explain?.boosts)} ${JSON.stringify(r.explain?.penalties)}`).join('\n')}`);
      } finally {
        await store.close();
      }
    });
  }
});
