/**
 * A small store built by the real write path (remember, then the embed and extract jobs with the
 * heuristic extractor and a deterministic embedder), plus a few hints, for the search settings'
 * contract: `fingerprint(values)` runs a fixed set of probe queries on the configuration those
 * setting values give (readMemorySettings, recallSearchConfig — what the extension and the CLI
 * recall on) and returns the ranked ids with their scores.
 */
import { ManualClock } from '../../../src/core/clock';
import { readMemorySettings, recallSearchConfig } from '../../../src/core/config/memorySettings';
import { createPipelineHandlers } from '../../../src/core/jobs/pipelineHandlers';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import { createRecordingLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import type { Embedder } from '../../../src/core/models/embedder';
import { recallDetailed } from '../../../src/core/recall/recallService';
import type { RecallRequest } from '../../../src/core/recall/recallRequest';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { fakeEmbedder } from '../recall/fakeEmbedder';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;

/** [content, age in days] */
const MEMORIES: readonly (readonly [string, number])[] = [
  ['We chose PostgreSQL for the billing service because invoices need transactions.', 200],
  ['We migrated the billing service database from PostgreSQL to MongoDB in May; this replaces PostgreSQL.', 10],
  ['The billing service runs on Kubernetes in the eu-west cluster.', 90],
  ['The billing service sends invoice emails every Monday morning.', 3],
  ['Priya Raman leads the search team and owns the ranking roadmap.', 40],
  ['Marco maintains the deployment scripts and the staging cluster.', 5],
  ['The search team meets on Wednesdays to review relevance metrics.', 60],
  ['The deploy port for staging is 8443 and production uses 443.', 120],
  ['Use pnpm, not npm, for every package in the monorepo.', 300],
  ['The API gateway forwards billing requests to the billing service.', 20],
  ['Kubernetes upgrades happen in the maintenance window on Sundays.', 1],
  ['The billing team decided to keep invoices for ten years.', 70],
  ['Loki stores the logs of the billing service and the API gateway.', 15],
  ['The ranking roadmap puts hybrid search before personalisation.', 25],
  ['Standup moved to 9:30 because of the new timezone split.', 2],
  ['The billing service, the API gateway and the search service share one Kubernetes cluster.', 30],
  // Enough memories about Kubernetes alone to make it a hub entity (hub dampening needs 10 mentions).
  ...['pods restart every night', 'nodes autoscale at noon', 'secrets rotate monthly', 'dashboards live in Grafana',
    'ingress uses nginx', 'namespaces follow team names', 'quotas cap each team', 'jobs retry three times',
    'volumes are backed up daily', 'logs ship to Loki'].map((t, i): readonly [string, number] => [`Kubernetes ${t}.`, 100 + i]),
];

const HINTS: readonly (readonly [number, string])[] = [[8, 'which package manager do we use'], [7, 'what port does staging listen on']];

const PROBES: readonly RecallRequest[] = [
  { query: 'which database does the billing service use?' },
  { query: 'what is the latest on the billing service?' },
  { query: 'Who is Priya?' },
  { query: 'which package manager do we use' },
  { query: 'Kubernetes cluster billing service API gateway' },
  { query: 'recent changes to the search team roadmap' },
  { query: 'what port does staging listen on' },
  { query: 'billing invoices', limit: 3 },
];

export interface RecallFixture {
  readonly store: MemoryStore;
  readonly clock: ManualClock;
  readonly embedder: Embedder;
  /** Ranked ids and scores of every probe on the configuration `values` (setting key -> value) give. */
  fingerprint(values: Readonly<Record<string, unknown>>, extra?: Partial<RecallRequest>): Promise<string>;
  close(): Promise<void>;
}

export async function openRecallFixture(): Promise<RecallFixture> {
  const clock = new ManualClock(NOW);
  const store = await openMemoryStore({ clock });
  const embedder: Embedder = { ...fakeEmbedder(), dispose: async () => undefined };
  const deps = defaultRememberDeps(clock, { enqueue: { embed: true, extract: true, hints: false } });
  const ids: string[] = [];
  for (const [content, days] of MEMORIES) ids.push((await remember(store, { content, createdAt: new Date(NOW - days * DAY).toISOString() }, deps)).id);
  const base = readMemorySettings(() => undefined);
  const logger = createRecordingLogger();
  const handlers = createPipelineHandlers({ embedder, llm: undefined, extraction: base.extraction, graph: base.graph, logger });
  await new JobWorker({ store, handlers, config: base.jobs, clock, logger }).drain();
  await store.write('contract-hints', (w) => {
    for (const [i, hint] of HINTS) w.run('INSERT OR IGNORE INTO memory_hints (memory_id, hint, created_at) VALUES (?, ?, ?)', [ids[i], hint, new Date(NOW).toISOString()]);
  });
  return {
    store, clock, embedder,
    async fingerprint(values, extra = {}) {
      const config = recallSearchConfig(readMemorySettings((k) => values[k]));
      const lines: string[] = [];
      for (const probe of PROBES) {
        const out = await recallDetailed(store, { ...probe, ...extra }, { config, clock, embedder, track: false }, false);
        lines.push(out.items.map((r) => `${r.id}:${r.score.toFixed(6)}`).join(' '));
      }
      return lines.join('\n');
    },
    close: () => store.close(),
  };
}
