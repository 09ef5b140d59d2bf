/**
 * What recall on a partial team replica costs (docs/team.md "Partial replicas"): the added wall
 * and CPU time of a recall that also asks the team server, against a real PostgreSQL server on
 * 127.0.0.1 started by the test harness (test/unit/helpers/postgresServer.ts; Debian's server has
 * no pgvector, so the server runs its lexical arm). One engine on one store, the same queries
 * recalled with team.replica 'full' (local only) and 'partial' (local + server), interleaved
 * (A B, B A, …) so machine load hits both alike. CPU time is this process's (user + system); the
 * server's own CPU is not in it. Recalled hits are replicated between samples (outside the timing).
 * The server table is ANALYZEd after seeding, as autovacuum would do on a live server.
 * Writes bench/results/teamRecall.json (teamRecall-N.json for another --server N).
 *
 *   node --require tsx/cjs bench/teamRecall.ts [--server 10000] [--local 2000] [--samples 60]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../src/core/config/jobsConfig';
import { DEFAULT_REDACTION_CONFIG } from '../src/core/config/redactionConfig';
import { resolveTeamConfig } from '../src/core/config/teamConfig';
import { TeamSync } from '../src/core/team/teamSync';
import { readMemorySettings } from '../src/core/config/memorySettings';
import { MemoryEngine } from '../src/core/engine/memoryEngine';
import { noProgress } from '../src/core/hostContext';
import { silentLogger } from '../src/core/logger';
import { insertMemory } from '../src/core/memory/memoryRecords';
import { openMemoryStore } from '../src/core/store/memoryStore';
import { MEMBER_ROLE } from '../src/core/team/serverSchema';
import { connectStore, shareProject } from '../src/core/team/teamAdmin';
import { initTeamServer } from '../src/core/team/teamConnection';
import { teamPasswordSecretKey } from '../src/core/team/teamSecret';
import { ADMIN_ROLE, startPostgres } from '../test/unit/helpers/postgresServer';
import { fakeEmbedder } from '../test/unit/recall/fakeEmbedder';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const SERVER_ROWS = Number(argOf('server', '10000'));
const LOCAL_ROWS = Number(argOf('local', '2000'));
const SAMPLES = Number(argOf('samples', '60'));
const PROJECT = 'bench';

let seed = 7;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const SYLL = ['ka', 'ro', 'mi', 'te', 'su', 'na', 'lo', 'pe', 'di', 'va', 'zu', 'xo', 'bre', 'sta'];
const word = (): string => { let w = ''; let n = 1 + Math.floor(Math.pow(rnd(), 2) * 5000); do { w += SYLL[n % SYLL.length]; n = Math.floor(n / SYLL.length); } while (n > 0); return w; };
const sentence = (): string => Array.from({ length: 14 + Math.floor(rnd() * 10) }, word).join(' ');
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = Math.floor(s.length / 2); return s.length % 2 ? s[m] as number : ((s[m - 1] as number) + (s[m] as number)) / 2; };
const p95 = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))] as number; };
const round = (n: number, d = 2): number => Number(n.toFixed(d));

async function main(): Promise<void> {
  const load0 = loadavg();
  const pg = await startPostgres();
  try {
    await initTeamServer({ connectionString: pg.url(ADMIN_ROLE), password: pg.adminPassword });
    await pg.createRole('alice', 'alice-pw', MEMBER_ROLE);
    await pg.createRole('bob', 'bob-pw', MEMBER_ROLE);
    // Alice's shared memories, on the server only (bob's partial replica never pulled them).
    const texts = Array.from({ length: SERVER_ROWS }, sentence);
    const admin = await pg.admin();
    try {
      for (let i = 0; i < texts.length; i += 2_000) {
        const chunk = texts.slice(i, i + 2_000);
        await admin.query(
          `INSERT INTO agent_memory.memories (id, author, project, type, content, content_hash, created_at, deleted)
           SELECT 'srv-' || (n + $3), 'alice', $1, 'fact', t, md5(t), '2026-11-01T00:00:00.000Z', false FROM unnest($2::text[]) WITH ORDINALITY AS x(t, n)`,
          [PROJECT, chunk, i]);
      }
      // As autovacuum does on a live server after a bulk load: without statistics the planner
      // picks a plan for the lexical arm about 4x slower at 100,000 rows (docs/team.md).
      await admin.query('ANALYZE agent_memory.memories');
    } finally {
      await admin.end();
    }
    const clock = new ManualClock(Date.UTC(2026, 11, 1));
    const store = await openMemoryStore({ clock });
    await store.write('bench.seed', (db) => { for (let i = 0; i < LOCAL_ROWS; i++) insertMemory(db, { content: sentence(), project: PROJECT, createdAt: '2026-11-01T00:00:00Z' }); });
    await connectStore(store, pg.url('bob'), 'bob-pw');
    await shareProject(store, PROJECT, true);
    // A partial replica's pull: passes over alice's rows and marks the pull caught up, so 'full'
    // below is a caught-up store recalling locally (a full replica still catching up would ask the server).
    const sync = new TeamSync({ store, clock, logger: silentLogger, config: resolveTeamConfig({ replica: 'partial' }), redaction: DEFAULT_REDACTION_CONFIG, jobs: DEFAULT_JOBS_CONFIG, password: async () => 'bob-pw' });
    const pull0 = performance.now();
    const pullCpu0 = process.cpuUsage();
    const pulled = await sync.syncOnce();
    const pullCpu = process.cpuUsage(pullCpu0);
    const partialPull = { wallMs: round(performance.now() - pull0), cpuMs: round((pullCpu.user + pullCpu.system) / 1000), rowsPassedOver: pulled.pull.notHeld };
    await sync.stop();
    if (pulled.pull.notHeld !== SERVER_ROWS) throw new Error(`expected the partial pull to pass over ${SERVER_ROWS} rows, got ${JSON.stringify(pulled.pull)}`);
    const secrets = { get: async (k: string) => (k === teamPasswordSecretKey(pg.url('bob')) ? 'bob-pw' : undefined), set: async () => undefined, delete: async () => undefined };
    const settingsFor = (replica: string) => readMemorySettings((k) => (k === 'team.replica' ? replica : undefined));
    const engine = MemoryEngine.onStore(store, { paths: { storeDir: '', bundledModelsDir: '', cacheDir: '' }, logger: silentLogger, clock, llm: undefined, progress: noProgress, secrets },
      settingsFor('full'), { mode: 'onDemand', embedder: () => fakeEmbedder(64) });
    await engine.settle();
    // Queries: three words of a server memory (so the server has hits), as an agent would ask.
    const queries = Array.from({ length: SAMPLES + 1 }, () => { const w = (texts[Math.floor(rnd() * texts.length)] as string).split(' '); return w.slice(0, 3).join(' '); });
    const timeOne = async (replica: 'full' | 'partial', query: string): Promise<{ wallMs: number; cpuMs: number; fromServer: number; serverMs: number | undefined }> => {
      engine.updateSettings(settingsFor(replica));
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const out = await engine.recallDetailed({ query, limit: 10 }, { track: false });
      const wallMs = performance.now() - t0;
      const c = process.cpuUsage(c0);
      const fromServer = out.items.filter((r) => r.explain?.notes.some((n) => n.startsWith('from the team server'))).length;
      const note = out.notes.find((n) => n.startsWith('Team server consulted in'));
      const serverMs = note ? Number(/in (\d+) ms/.exec(note)?.[1]) : undefined;
      if (replica === 'partial' && !note) throw new Error(`the server was not consulted: ${out.notes.join(' | ')}`);
      if (replica === 'full' && note) throw new Error('a caught-up full replica consulted the server');
      await engine.settle(); // replicate what was recalled, outside the timing
      return { wallMs, cpuMs: (c.user + c.system) / 1000, fromServer, serverMs };
    };
    // The first partial recall opens the connection (TCP + SCRAM login): reported on its own.
    const cold = await timeOne('partial', queries[SAMPLES] as string);
    const full: Awaited<ReturnType<typeof timeOne>>[] = [];
    const partial: Awaited<ReturnType<typeof timeOne>>[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const q = queries[i] as string;
      if (i % 2 === 0) { full.push(await timeOne('full', q)); partial.push(await timeOne('partial', q)); }
      else { partial.push(await timeOne('partial', q)); full.push(await timeOne('full', q)); }
    }
    await engine.close();
    await store.close();
    const load1 = loadavg();
    const summary = (xs: typeof full) => ({ wallMsMedian: round(median(xs.map((x) => x.wallMs))), wallMsP95: round(p95(xs.map((x) => x.wallMs))), cpuMsMedian: round(median(xs.map((x) => x.cpuMs))) });
    const added = full.map((f, i) => (partial[i] as typeof f).wallMs - f.wallMs);
    const addedCpu = full.map((f, i) => (partial[i] as typeof f).cpuMs - f.cpuMs);
    const result = {
      bench: 'teamRecall', date: new Date().toISOString(), serverRows: SERVER_ROWS, localRows: LOCAL_ROWS, samples: SAMPLES,
      server: 'PostgreSQL (Debian, test harness) on 127.0.0.1, lexical arm (no pgvector)', embedder: 'fake bag-of-words, 64 dims (local vector arm)',
      full: summary(full), partial: summary(partial),
      addedWallMsMedian: round(median(added)), addedCpuMsMedian: round(median(addedCpu)),
      serverMsMedian: round(median(partial.map((p) => p.serverMs ?? 0))),
      serverHitsReturnedMedian: median(partial.map((p) => p.fromServer)),
      coldFirstPartialRecallMs: round(cold.wallMs),
      partialPull,
      loadAverage: { before: load0.map((x) => round(x)), after: load1.map((x) => round(x)) },
    };
    console.log(JSON.stringify(result, null, 2));
    const dir = join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, SERVER_ROWS === 10_000 ? 'teamRecall.json' : `teamRecall-${SERVER_ROWS}.json`), JSON.stringify(result, null, 2) + '\n');
  } finally {
    await pg.stop();
  }
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
