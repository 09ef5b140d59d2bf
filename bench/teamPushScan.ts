/**
 * What the push scan costs (docs/team.md "The push scan"): the step every team push runs before
 * sending, on an in-memory store holding N memories of one shared project, all shared and
 * acknowledged by the server (no PostgreSQL needed: the scan is local). Two passes, interleaved
 * (A B, B A, …) so machine load hits both alike:
 *  - full: planScan over every memory of the shared projects, and applyScan when it found
 *    something (what every push ran before migration 29; still the pass on a change of the
 *    shared projects, once a day, and on `team sync --full`);
 *  - dirty: scanForPush, which reads the memories team_dirty names (what a push runs now).
 * Cases: idle (nothing changed since the last push), few changes (3 remembered, 3 edited,
 * 3 forgotten, 1 re-embedded, then scanned and queued), and after a push (the scan that follows
 * acknowledging those 10). CPU time is this process's (user + system). Also the cost the triggers
 * add to a single-memory write (remember) and to applying a pulled page of 2,000 replicas, with the
 * triggers and with them dropped, interleaved.
 * Writes bench/results/teamPushScan.json.
 *
 *   node --require tsx/cjs bench/teamPushScan.ts [--sizes 10000,100000] [--samples 25]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ManualClock, isoFromMs } from '../src/core/clock';
import { contentHash, insertMemory } from '../src/core/memory/memoryRecords';
import { openMemoryStore } from '../src/core/store/memoryStore';
import type { MemoryStore, SqlWriter } from '../src/core/store/storeTypes';
import { DEFAULT_JOBS_CONFIG } from '../src/core/config/jobsConfig';
import { applyPulled } from '../src/core/team/teamApply';
import type { IncomingRow } from '../src/core/team/teamApply';
import { ackPushed, applyScan, planIsEmpty, planScan, scanForPush } from '../src/core/team/teamOutbox';
import type { PushAck } from '../src/core/team/teamOutbox';
import { TEAM_SCAN_TRIGGERS } from '../src/core/team/teamScanMigration';
import { readTeamState, saveConnection, setProjectShared } from '../src/core/team/teamState';

const arg = (name: string): string | undefined => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
const SIZES = (arg('sizes') ?? '10000,100000').split(',').map(Number);
const SAMPLES = Number(arg('samples') ?? 25);
const T0 = Date.parse('2026-12-01T00:00:00Z');
const clock = new ManualClock(T0);
const round = (x: number): number => Math.round(x * 100) / 100;
const median = (xs: readonly number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] as number : ((s[m - 1] as number) + (s[m] as number)) / 2; };

interface Sample { wallMs: number; cpuMs: number }

async function timed(fn: () => Promise<unknown> | unknown): Promise<Sample> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await fn();
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000 };
}

const summary = (xs: readonly Sample[]) => ({ wallMsMedian: round(median(xs.map((x) => x.wallMs))), cpuMsMedian: round(median(xs.map((x) => x.cpuMs))), samples: xs.length });

let counter = 0;
const text = (i: number): string => `Memory ${i}: the service ${i % 97} keeps its queue ${i % 13} in region ${i % 7}, checked ${counter++}.`;

/** What the server would acknowledge for every outbox entry (same hash, vector when present). */
function ackAll(w: SqlWriter): void {
  const rows = w.all<{ memory_id: string; version: number; op: string; hash: string | null }>(
    'SELECT o.memory_id, o.version, o.op, m.content_hash AS hash FROM team_outbox o LEFT JOIN memories m ON m.id = o.memory_id');
  const acks: PushAck[] = rows.map((r) => ({ memoryId: r.memory_id, version: r.version, pushedHash: r.hash ?? '', vectorPushed: r.op === 'upsert', deleted: r.op !== 'upsert' }));
  ackPushed(w, acks, isoFromMs(clock.now()));
}

/** The old push step: plan over everything, queue when something is found. */
async function fullStep(store: MemoryStore): Promise<void> {
  const projects = store.read((db) => readTeamState(db).sharedProjects);
  if (!store.read((db) => planIsEmpty(planScan(db, projects, 'full')))) {
    await store.write('team.scan', (db) => applyScan(db, readTeamState(db).sharedProjects, isoFromMs(clock.now()), 'full'));
  }
}

const dirtyStep = (store: MemoryStore): Promise<number> => scanForPush(store, clock.now());

/** 3 remembered, 3 edited, 3 forgotten, 1 re-embedded (a vector computed for a shared memory). */
async function fewChanges(store: MemoryStore, n: number, round: number): Promise<void> {
  await store.write('bench.change', (w) => {
    for (let k = 0; k < 3; k++) insertMemory(w, { content: text(n + round * 10 + k), project: 'web', createdAt: isoFromMs(clock.now()) });
    for (let k = 0; k < 3; k++) {
      const id = `m-${(round * 31 + k * 7) % n}`;
      const c = `${text(round * 1000 + k)} (edited)`;
      w.run('UPDATE memories SET content = ?, content_hash = ?, updated_at = ? WHERE id = ? AND is_deleted = 0', [c, contentHash(c), isoFromMs(clock.now()), id]);
    }
    for (let k = 0; k < 3; k++) w.run("UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE id = ?", [isoFromMs(clock.now()), `m-${(round * 53 + k * 11 + 5) % n}`]);
    const vid = `m-${(round * 17 + 3) % n}`;
    w.run('UPDATE team_shares SET vector_pushed = 0 WHERE memory_id = ?', [vid]);
    w.run(`INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at)
           SELECT content_hash, 'bench-model-' || ?, x'00000000', 1, 'memory', id, ? FROM memories WHERE id = ?`, [round, isoFromMs(clock.now()), vid]);
  });
}

async function benchSize(n: number): Promise<Record<string, unknown>> {
  const store = await openMemoryStore({ clock });
  const seed0 = Date.now();
  await store.write('bench.seed', (w) => {
    saveConnection(w, 'postgresql://alice@db.example.com:5432/team', 'db.example.com:5432/team', 'alice');
    setProjectShared(w, 'web', true);
    for (let i = 0; i < n; i++) insertMemory(w, { id: `m-${i}`, content: text(i), project: 'web', createdAt: isoFromMs(T0 - (n - i) * 1000) });
    // A personal project beside it (never scanned by either pass).
    for (let i = 0; i < n / 10; i++) insertMemory(w, { id: `p-${i}`, content: text(n + i), project: 'scratch', createdAt: isoFromMs(T0) });
  });
  await store.write('bench.firstScan', (w) => applyScan(w, ['web'], isoFromMs(clock.now()), 'full'));
  await store.write('bench.ack', (w) => ackAll(w));
  await dirtyStep(store); // clears the acknowledgement marks
  const seedS = (Date.now() - seed0) / 1000;

  const idle = { full: [] as Sample[], dirty: [] as Sample[] };
  const few = { full: [] as Sample[], dirty: [] as Sample[] };
  const afterPush = { full: [] as Sample[], dirty: [] as Sample[] };
  let queuedFull = 0, queuedDirty = 0, r = 0;
  for (let i = 0; i < SAMPLES; i++) {
    for (const which of (i % 2 === 0 ? ['full', 'dirty'] : ['dirty', 'full']) as ('full' | 'dirty')[]) {
      const step = which === 'full' ? () => fullStep(store) : () => dirtyStep(store);
      clock.advance(1000);
      idle[which].push(await timed(step));
      await fewChanges(store, n, ++r);
      const before = store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_outbox')?.n ?? 0);
      few[which].push(await timed(step));
      const queued = store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_outbox')?.n ?? 0) - before;
      if (which === 'full') queuedFull += queued; else queuedDirty += queued;
      // Nothing missed: after either pass a full plan finds nothing left to queue.
      if (!store.read((db) => planIsEmpty(planScan(db, ['web'], 'full')))) throw new Error(`the ${which} pass left something unqueued`);
      await store.write('bench.ack', (w) => ackAll(w));
      afterPush[which].push(await timed(step));
      await dirtyStep(store); // leaves nothing marked for the next sample of either pass
    }
  }
  const dirtyPlan = store.read((db) => db.all<{ detail: string }>("EXPLAIN QUERY PLAN SELECT m.id FROM team_dirty d CROSS JOIN memories m ON m.id = d.memory_id WHERE m.project IN ('web') AND m.is_deleted = 0").map((x) => x.detail));

  // What the triggers add to a remember: single-memory writes with and without them, interleaved.
  const withT: Sample[] = [], withoutT: Sample[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    for (const on of i % 2 === 0 ? [true, false] : [false, true]) {
      if (!on) await store.write('bench.dropTriggers', (w) => { for (const t of w.all<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'team_dirty_%'")) w.run(`DROP TRIGGER ${t.name}`); });
      const s = await timed(async () => { for (let k = 0; k < 20; k++) await store.write('bench.remember', (w) => insertMemory(w, { content: `${text(n * 2 + i * 100 + k)} ${on}`, project: 'web', createdAt: isoFromMs(clock.now()) })); });
      (on ? withT : withoutT).push({ wallMs: s.wallMs / 20, cpuMs: s.cpuMs / 20 });
      if (!on) await store.write('bench.createTriggers', (w) => { for (const t of TEAM_SCAN_TRIGGERS) w.run(t); });
    }
  }
  // What the triggers add to a pulled page (2,000 teammates' replicas: memory and share rows marked), interleaved.
  const pullWith: Sample[] = [], pullWithout: Sample[] = [];
  let seq = 1;
  const PAGE = 2_000;
  for (let i = 0; i < Math.min(SAMPLES, 10); i++) {
    for (const on of i % 2 === 0 ? [true, false] : [false, true]) {
      if (!on) await store.write('bench.dropTriggers', (w) => { for (const t of w.all<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'team_dirty_%'")) w.run(`DROP TRIGGER ${t.name}`); });
      const rows: IncomingRow[] = [];
      for (let k = 0; k < PAGE; k++, seq++) {
        const content = `Teammate fact ${seq} on ${on}: the worker ${seq % 89} drains queue ${seq % 11}.`;
        rows.push({ id: `r-${seq}`, seq, author: 'bob', content, project: 'web', type: 'fact', content_hash: contentHash(content), tags: null, importance: 0.5, confidence: 1, created_at: isoFromMs(T0), deleted: false, model_id: null, dimensions: null, vector: null });
      }
      (on ? pullWith : pullWithout).push(await timed(() => store.write('team.pull', (w) => applyPulled(w, rows, { clock, jobs: DEFAULT_JOBS_CONFIG, embeddingModelId: undefined, extract: false }))));
      if (!on) await store.write('bench.createTriggers', (w) => { for (const t of TEAM_SCAN_TRIGGERS) w.run(t); });
      await dirtyStep(store);
    }
  }
  await store.close();
  return {
    memories: n, personalMemories: n / 10, seedSeconds: round(seedS),
    idle: { full: summary(idle.full), dirty: summary(idle.dirty) },
    fewChanges: { full: summary(few.full), dirty: summary(few.dirty), queuedPerSample: { full: queuedFull / SAMPLES, dirty: queuedDirty / SAMPLES } },
    afterPush: { full: summary(afterPush.full), dirty: summary(afterPush.dirty) },
    rememberWrite: { withTriggers: summary(withT), withoutTriggers: summary(withoutT) },
    pullPage2000: { withTriggers: summary(pullWith), withoutTriggers: summary(pullWithout) },
    dirtyFreshPlan: dirtyPlan,
  };
}

async function main(): Promise<void> {
  const load0 = loadavg();
  const sizes: Record<string, unknown>[] = [];
  for (const n of SIZES) {
    const l = loadavg();
    const r = await benchSize(n);
    sizes.push({ ...r, loadAverageAtStart: l.map(round), loadAverageAtEnd: loadavg().map(round) });
    console.log(JSON.stringify(sizes[sizes.length - 1], null, 2));
  }
  const result = { bench: 'teamPushScan', date: new Date().toISOString(), samples: SAMPLES, store: 'in-memory (sql.js), one shared project', sizes, loadAverage: { before: load0.map(round), after: loadavg().map(round) } };
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'teamPushScan.json'), JSON.stringify(result, null, 2) + '\n');
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
