import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../../../src/core/config/graphConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { createPipelineHandlers } from '../../../src/core/jobs/pipelineHandlers';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import { createRecordingLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { WorkerEmbedder } from '../../../src/core/models/workerEmbedder';
import { pinEntity, unpinEntity } from '../../../src/core/pinning/pinning';
import { recallDetailed } from '../../../src/core/recall/recallService';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { ensureUseLiteModel } from '../models/modelFixture';

/**
 * Pins change answers (docs/recall-design.md, "Pins"): small stores built by the real write path
 * (default embedder, extraction jobs), one table row each. `pins` are pinned (and `unpin` unpinned
 * again) before the question; `first` must rank first; with `sameAsUnpinned` the answer must be
 * exactly the unpinned one (an unrelated pin moves nothing and adds nothing). Every row also
 * checks that the pin added no memory the unpinned recall did not return.
 */
interface Case {
  name: string;
  memories: string[];
  pins: string[];
  unpin?: string[];
  /** Pins held by another agent (must not count for the default agent). */
  otherAgentPins?: string[];
  query: string;
  first: string;
  /** The answer without pins starts with this (shows the pin is what changed it). */
  unpinnedFirst?: string;
  sameAsUnpinned?: boolean;
  /** Run with the pin stage off (search.pinsFocal false). */
  stageOff?: boolean;
}

const BROKERS = [
  'We use Kafka as the message broker for event streaming.',
  'RabbitMQ runs the background job queues.',
  'NATS was dropped after the outage in March.',
  'The broker choice is reviewed quarterly.',
];
const DATABASES = [
  'PostgreSQL stores the orders and invoices of the shop.',
  'MySQL stores the legacy user accounts of the shop.',
  'Redis caches the product pages for ten minutes.',
  'Backups of every store run every night at two.',
];
const TEAM = [
  'Priya Raman reviews the ranking changes before each release.',
  'Marco Rossi reviews the deployment scripts before each release.',
  'Dana collects the weekly bug reports from support.',
  'Releases go out on Tuesdays after the review.',
];
const OFFICE = [
  'Standup moved to 9:30 because of the new timezone split.',
  'The office coffee machine was replaced with an espresso maker.',
  'Kafka topics are retained for seven days.',
  'The design review for the onboarding flow is on Thursday afternoon.',
];

const CASES: Case[] = [
  { name: 'the issue\'s example: a pinned broker answers the broker question', memories: BROKERS, pins: ['RabbitMQ'], query: 'which message broker handles our queues?', first: BROKERS[1] as string, unpinnedFirst: BROKERS[0] as string },
  { name: 'the same pin leaves another broker\'s question to that broker', memories: BROKERS, pins: ['RabbitMQ'], query: 'what happened to NATS?', first: BROKERS[2] as string },
  { name: 'unpinned again, the answer is the unpinned one', memories: BROKERS, pins: ['RabbitMQ'], unpin: ['RabbitMQ'], query: 'which message broker handles our queues?', first: BROKERS[0] as string, sameAsUnpinned: true },
  { name: 'pinning the memory that already wins changes nothing at the top', memories: BROKERS, pins: ['Kafka'], query: 'which message broker handles our queues?', first: BROKERS[0] as string },
  { name: 'a relevant pinned database above an equally relevant unpinned one', memories: DATABASES, pins: ['MySQL'], query: 'which database stores the shop data?', first: DATABASES[1] as string },
  { name: 'the other database pinned instead', memories: DATABASES, pins: ['PostgreSQL'], query: 'which database stores the shop data?', first: DATABASES[0] as string },
  { name: 'an irrelevant pin (a cache) does not answer a question about backups', memories: DATABASES, pins: ['Redis'], query: 'when do the backups run?', first: DATABASES[3] as string, sameAsUnpinned: true },
  { name: 'two pins: the relevant one wins, the unrelated one adds nothing', memories: DATABASES, pins: ['Redis', 'MySQL'], query: 'which database stores the shop data?', first: DATABASES[1] as string },
  { name: 'a pinned person answers "who reviews" over an equally relevant one', memories: TEAM, pins: ['Marco Rossi'], query: 'who reviews before each release?', first: TEAM[1] as string },
  { name: 'the pinned person does not answer a question about someone else', memories: TEAM, pins: ['Marco Rossi'], query: 'who collects the bug reports?', first: TEAM[2] as string, sameAsUnpinned: true },
  { name: 'a pinned entity in an unrelated store: the answer is the unpinned one', memories: OFFICE, pins: ['Kafka'], query: 'when is standup?', first: OFFICE[0] as string, sameAsUnpinned: true },
  { name: 'another agent\'s pin does not count', memories: BROKERS, pins: [], otherAgentPins: ['RabbitMQ'], query: 'which message broker handles our queues?', first: BROKERS[0] as string, sameAsUnpinned: true },
  { name: 'with the pin stage off a pin changes nothing', memories: BROKERS, pins: ['RabbitMQ'], stageOff: true, query: 'which message broker handles our queues?', first: BROKERS[0] as string, sameAsUnpinned: true },
];

describe('pins change answers, only among relevant memories (table of small stores)', function () {
  this.timeout(180_000);
  const now = Date.parse('2026-06-01T12:00:00Z');
  const clock = new ManualClock(now);
  let embedder: WorkerEmbedder;
  before(() => { embedder = new WorkerEmbedder({ modelDir: ensureUseLiteModel() }); });
  after(async () => { await embedder.dispose(); });

  async function build(memories: readonly string[]): Promise<MemoryStore> {
    const store = await openMemoryStore({ clock });
    const deps = defaultRememberDeps(clock, { enqueue: { embed: true, extract: true, hints: false } });
    for (const m of memories) await remember(store, { content: m, createdAt: new Date(now - 30 * 86_400_000).toISOString() }, deps);
    const logger = createRecordingLogger();
    const handlers = createPipelineHandlers({ embedder, llm: undefined, extraction: DEFAULT_EXTRACTION_CONFIG, graph: DEFAULT_GRAPH_CONFIG, logger });
    const stats = await new JobWorker({ store, handlers, config: resolveJobsConfig({}), clock, logger }).drain();
    assert.equal(stats.dead, 0);
    return store;
  }

  for (const c of CASES) {
    it(c.name, async () => {
      const store = await build(c.memories);
      try {
        const config = resolveSearchConfig(c.stageOff ? { pins: { enabled: false } } : {});
        const ask = async () => (await recallDetailed(store, { query: c.query, limit: 10 }, { clock, embedder, track: false, config }, true)).items;
        const unpinned = await ask();
        const iso = new Date(now).toISOString();
        await store.write('pin', (db) => {
          for (const p of c.pins) pinEntity(db, 'default', p, iso);
          for (const p of c.unpin ?? []) unpinEntity(db, 'default', p, iso);
          for (const p of c.otherAgentPins ?? []) db.run("UPDATE entities SET pinned = 1, pinned_at = ?, agent_id = 'other' WHERE canonical_name = ?", [iso, p.toLowerCase()]);
        });
        if (c.otherAgentPins) assert.ok(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entities WHERE pinned = 1 AND agent_id = 'other'"))?.n, 'the other agent\'s pin exists');
        const pinned = await ask();
        const show = (items: typeof pinned) => items.map((r) => `${r.score.toFixed(3)} ${r.content} ${JSON.stringify(r.explain?.boosts.map((b) => b.stage))}`).join('\n');
        assert.equal(pinned[0]?.content, c.first, `pinned:\n${show(pinned)}\nunpinned:\n${show(unpinned)}`);
        if (c.unpinnedFirst !== undefined) assert.equal(unpinned[0]?.content, c.unpinnedFirst, `without the pin:\n${show(unpinned)}`);
        const before = new Set(unpinned.map((r) => r.id));
        for (const r of pinned) assert.ok(before.has(r.id), `the pin added '${r.content}'`);
        if (c.sameAsUnpinned) assert.deepEqual(pinned.map((r) => r.id), unpinned.map((r) => r.id), `pinned:\n${show(pinned)}\nunpinned:\n${show(unpinned)}`);
      } finally {
        await store.close();
      }
    });
  }
});
