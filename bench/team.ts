/**
 * Team memory bench (docs/team.md, "Sizing"), against a real PostgreSQL server started by the test
 * harness (test/unit/helpers/postgresServer.ts: its own data folder, 127.0.0.1, a free port):
 *  1. convergence: four clients (durable stores in temp folders, live mode with LISTEN/NOTIFY) each
 *     remember 2,500 memories at once; time until every client holds all 10,000;
 *  2. replication lag: remember on one client → found by recall on the others, p50/p95 over samples
 *     taken one at a time (live mode, no polling of the server), first with all four clients live
 *     (the writer rotates; one measurement per reader), then between two (the others closed);
 *  3. a fresh client pulling 100,000 shared memories with 512-dimension vectors (seeded straight
 *     into the server): pull time, RSS of that process, and time until a lexical and a vector
 *     query find a given memory. Runs in a child process so RSS is the client's alone.
 * Goals: 4 × 2,500 within 60 s, lag p95 ≤ 2 s, 100k pulled and searchable within 5 minutes.
 * Writes bench/results/team.json.
 *
 * The server keeps PostgreSQL's durable defaults (fsync on) unless --fast-server.
 *
 *   node --require tsx/cjs bench/team.ts [--per-client 2500] [--lag-samples 100] [--large 100000] [--skip-large | --only-large] [--fast-server]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../src/core/config/jobsConfig';
import { DEFAULT_REDACTION_CONFIG } from '../src/core/config/redactionConfig';
import { resolveTeamConfig } from '../src/core/config/teamConfig';
import { silentLogger } from '../src/core/logger';
import { countMemories, insertMemory } from '../src/core/memory/memoryRecords';
import { vectorToBlob } from '../src/core/models/vectorStore';
import { recall } from '../src/core/recall/recallService';
import { openStore } from '../src/core/store/openStore';
import type { DurableMemoryStore } from '../src/core/store/durableStore';
import { MEMBER_ROLE } from '../src/core/team/serverSchema';
import { connectStore, shareProject } from '../src/core/team/teamAdmin';
import { initTeamServer } from '../src/core/team/teamConnection';
import { TeamSync } from '../src/core/team/teamSync';
import { ADMIN_ROLE, startPostgres } from '../test/unit/helpers/postgresServer';
import { fakeEmbedder } from '../test/unit/recall/fakeEmbedder';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const PER_CLIENT = Number(argOf('per-client', '2500'));
const LAG_SAMPLES = Number(argOf('lag-samples', '100'));
const LARGE = Number(argOf('large', '100000'));
/** --skip-large: phases 1 and 2 only (the 100k pull takes minutes on a loaded machine). */
const SKIP_LARGE = args.includes('--skip-large');
/** --only-large: phase 3 only (writes bench/results/team-pull.json). */
const ONLY_LARGE = args.includes('--only-large');
/** --fast-server: the tests' server settings (fsync off); by default the server runs with PostgreSQL's durable defaults. */
const DURABLE_SERVER = !args.includes('--fast-server');
const DIMS = 512;
const MODEL = 'bench-bow-512';

let seed = 11;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const SYLL = ['ka', 'ro', 'mi', 'te', 'su', 'na', 'lo', 'pe', 'di', 'va', 'zu', 'xo', 'bre', 'sta'];
const word = (): string => { let w = ''; let n = 1 + Math.floor(Math.pow(rnd(), 2) * 5000); do { w += SYLL[n % SYLL.length]; n = Math.floor(n / SYLL.length); } while (n > 0); return w; };
/** ~120-character memories with Zipf-ish words, like short agent notes (bench/store.ts). */
const text = (tag: string, i: number): string => `${Array.from({ length: 14 + Math.floor(rnd() * 10) }, word).join(' ')} ${tag}${i}`;
const round = (n: number, d = 2): number => Number(n.toFixed(d));
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Client { store: DurableMemoryStore; sync: TeamSync; dir: string }

async function openClient(url: string, password: string, project: string, live: boolean): Promise<Client> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-memory-bench-team-'));
  const store = await openStore({ dir, logger: silentLogger, config: { lockTimeoutMs: 120_000 } });
  await connectStore(store, url, password);
  await shareProject(store, project, true);
  const sync = new TeamSync({ store, clock: systemClock, logger: silentLogger, config: resolveTeamConfig({ pushDebounceMs: 50 }), redaction: DEFAULT_REDACTION_CONFIG, jobs: DEFAULT_JOBS_CONFIG, extract: false, embeddingModelId: MODEL, password: () => Promise.resolve(password) });
  if (live) sync.start();
  return { store, sync, dir };
}

async function closeClient(c: Client): Promise<void> {
  await c.sync.stop();
  await c.store.close();
  rmSync(c.dir, { recursive: true, force: true });
}

/** Child mode: a fresh client pulls everything, then measures when it is searchable; prints one JSON line. */
async function childPull(url: string, project: string, probeText: string): Promise<void> {
  const password = process.env.PGPASSWORD ?? '';
  const t0 = performance.now();
  // CPU time of this process (user + system): steadier than wall time on a machine shared with other work.
  const cpu0 = process.cpuUsage();
  const c = await openClient(url, password, project, false);
  // Profile: time inside the local store transactions that apply pulled pages ('team.pull'); the
  // rest of the pull is the server query, moving the rows and decoding them.
  // Of that, applySqlMs runs the statements of applyPulled; the remainder is the store's commit
  // (journal and durability) and waiting for the write lock.
  let applyMs = 0, applySqlMs = 0, applyPages = 0;
  const write = c.store.write.bind(c.store);
  c.store.write = async <T>(label: string, fn: Parameters<typeof write<T>>[1]): Promise<T> => {
    if (label !== 'team.pull') return write(label, fn);
    const w0 = performance.now();
    try {
      return await write(label, (db) => { const s0 = performance.now(); try { return fn(db); } finally { applySqlMs += performance.now() - s0; } });
    } finally { applyMs += performance.now() - w0; applyPages++; }
  };
  const pulled = await c.sync.pull();
  const pullMs = performance.now() - t0;
  const pullCpu = process.cpuUsage(cpu0);
  const rssAfterPullMb = process.memoryUsage().rss / 1048576;
  const count = c.store.read((db) => countMemories(db, { project }));
  // The lexical arm reads the first `lexical.maxTerms` (8) terms of a query (src/core/recall/queryTerms.ts):
  // the probe's whole 15-25-word sentence would lose its one distinctive word (the tag at its end) and
  // leave 8 common words shared by thousands of the 100,000 rows, so the probe asks as an agent would,
  // with the distinctive word and a few of the memory's own words.
  const words = probeText.split(' ');
  const tag = words[words.length - 1] as string;
  const lexicalQuery = `${tag} ${words.slice(0, 4).join(' ')}`;
  const lexStart = performance.now();
  const lexical = await recall(c.store, { query: lexicalQuery, project, only: 'lexical', limit: 10 }, { clock: systemClock, track: false });
  const lexicalMs = performance.now() - lexStart;
  // The probe's unique last word, straight from the FTS index (independent of the lexical arm's ranking rules).
  const ftsHit = c.store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories_fts WHERE memories_fts MATCH ?', [`"${tag}"`])?.n ?? 0);
  const vecStart = performance.now();
  const embedder = fakeEmbedder(DIMS, MODEL);
  const vector = await recall(c.store, { query: probeText, project, only: 'vector', limit: 5 }, { clock: systemClock, track: false, embedder });
  const vectorMs = performance.now() - vecStart;
  const rssMb = process.memoryUsage().rss / 1048576;
  const out = {
    pulled: pulled.inserted, vectorsReused: pulled.vectorsReused, count, pullMs, applyMs, applySqlMs, applyCommitMs: applyMs - applySqlMs, applyPages, serverAndTransferMs: pullMs - applyMs,
    pullCpuUserMs: pullCpu.user / 1000, pullCpuSystemMs: pullCpu.system / 1000, rssAfterPullMb, rssMb,
    firstLexicalQueryMs: lexicalMs, firstVectorQueryMs: vectorMs, searchableMs: performance.now() - t0,
    lexicalFound: lexical.some((r) => r.content === probeText), ftsIndexHasProbe: ftsHit === 1, vectorFound: vector.some((r) => r.content === probeText),
  };
  await closeClient(c);
  process.stdout.write(JSON.stringify(out) + '\n');
}

async function main(): Promise<void> {
  const pg = await startPostgres({ durable: DURABLE_SERVER });
  const started = Date.now();
  const roles = ['b1', 'b2', 'b3', 'b4'];
  const passwords = new Map<string, string>();
  const result: Record<string, unknown> = { date: new Date().toISOString(), loadavgAtStart: loadavg().map((n) => round(n)), cores: 2, postgres: `Debian postgresql 15, ${DURABLE_SERVER ? 'fsync and full_page_writes on (PostgreSQL defaults)' : 'fsync off (--fast-server)'}` };
  try {
    await initTeamServer({ connectionString: pg.url(ADMIN_ROLE), password: pg.adminPassword });
    for (const r of roles) { passwords.set(r, `pw-${r}-${Math.random().toString(36).slice(2)}`); await pg.createRole(r, passwords.get(r) as string, MEMBER_ROLE); }

    // 1. Convergence of 4 × PER_CLIENT.
    if (!ONLY_LARGE) {
      const project = 'bench-converge';
      const clients = await Promise.all(roles.map((r) => openClient(pg.url(r), passwords.get(r) as string, project, true)));
      await sleep(500);
      const total = PER_CLIENT * clients.length;
      const t0 = performance.now();
      await Promise.all(clients.map(async (c, k) => {
        const created = new Date().toISOString();
        for (let i = 0; i < PER_CLIENT; i += 25) {
          const group: Promise<unknown>[] = [];
          for (let j = i; j < Math.min(PER_CLIENT, i + 25); j++) group.push(c.store.write('remember', (db) => insertMemory(db, { content: text(`c${k}n`, j), project, createdAt: created })));
          await Promise.all(group);
        }
      }));
      const writtenMs = performance.now() - t0;
      const deadline = Date.now() + 600_000;
      while (!clients.every((c) => c.store.read((db) => countMemories(db, { project })) >= total) && Date.now() < deadline) await sleep(50);
      const convergedMs = performance.now() - t0;
      const counts = clients.map((c) => c.store.read((db) => countMemories(db, { project })));
      result.convergence = { clients: clients.length, perClient: PER_CLIENT, total, localWritesDoneMs: round(writtenMs), convergedMs: round(convergedMs), counts, goalMs: 60_000, loadavg: loadavg().map((n) => round(n)) };
      console.log(`convergence: 4 × ${PER_CLIENT} → all ${total} on every client in ${round(convergedMs / 1000)} s (local writes done at ${round(writtenMs / 1000)} s); counts ${counts.join(', ')}`);

      // 2a. Replication lag with all four clients live (in this one Node process): the writer
      // rotates; each sample is remember on the writer → found by recall on each of the other three.
      const lags4: number[] = [], lags4All: number[] = [];
      for (let i = 0; i < LAG_SAMPLES; i++) {
        const writer = clients[i % clients.length] as Client;
        const readers = clients.filter((c) => c !== writer);
        const content = `lag four ${i} ${text('lagf', i)}`;
        const t = performance.now();
        const { id } = await writer.store.write('remember', (db) => insertMemory(db, { content, project, createdAt: new Date().toISOString() }));
        const pending = new Set(readers);
        while (pending.size > 0) {
          for (const r of [...pending]) {
            if (!r.store.read((db) => db.get('SELECT 1 AS x FROM memories WHERE id = ?', [id]))) continue;
            const found = await recall(r.store, { query: `lag four ${i} lagf${i}`, project, only: 'lexical', limit: 3 }, { clock: systemClock, track: false });
            if (!found.some((x) => x.id === id)) throw new Error(`lag sample ${i}: replicated but not recalled`);
            lags4.push(performance.now() - t);
            pending.delete(r);
          }
          if (pending.size > 0) await sleep(2);
        }
        lags4All.push(performance.now() - t);
        await sleep(50);
      }
      lags4.sort((x, y) => x - y);
      lags4All.sort((x, y) => x - y);
      result.lagFourClients = {
        samples: LAG_SAMPLES, readerMeasurements: lags4.length, p50Ms: round(pct(lags4, 50)), p95Ms: round(pct(lags4, 95)), maxMs: round(lags4[lags4.length - 1] as number),
        allThreeP50Ms: round(pct(lags4All, 50)), allThreeP95Ms: round(pct(lags4All, 95)), goalP95Ms: 2000, storeSize: total, loadavg: loadavg().map((n) => round(n)),
      };
      console.log(`lag remember→recall, 4 live clients: p50 ${round(pct(lags4, 50))} ms, p95 ${round(pct(lags4, 95))} ms (all three readers: p50 ${round(pct(lags4All, 50))} ms, p95 ${round(pct(lags4All, 95))} ms)`);

      // 2b. Replication lag, live, one sample at a time, between two of the (now 10,000-memory)
      // stores; the other two are closed first so they do not share this one Node process.
      const [a, b, ...rest] = clients as [Client, Client, ...Client[]];
      for (const c of rest) await closeClient(c);
      const lags: number[] = [];
      for (let i = 0; i < LAG_SAMPLES; i++) {
        const content = `lag probe ${i} ${text('lagq', i)}`;
        const t = performance.now();
        const { id } = await a.store.write('remember', (db) => insertMemory(db, { content, project, createdAt: new Date().toISOString() }));
        while (!b.store.read((db) => db.get('SELECT 1 AS x FROM memories WHERE id = ?', [id]))) await sleep(2);
        const found = await recall(b.store, { query: `lag probe ${i} lagq${i}`, project, only: 'lexical', limit: 3 }, { clock: systemClock, track: false });
        lags.push(performance.now() - t);
        if (!found.some((r) => r.id === id)) throw new Error(`lag sample ${i}: replicated but not recalled`);
        await sleep(50);
      }
      lags.sort((x, y) => x - y);
      result.lag = { clients: 2, samples: lags.length, p50Ms: round(pct(lags, 50)), p95Ms: round(pct(lags, 95)), maxMs: round(lags[lags.length - 1] as number), goalP95Ms: 2000, storeSize: total, loadavg: loadavg().map((n) => round(n)) };
      console.log(`lag remember→recall: p50 ${round(pct(lags, 50))} ms, p95 ${round(pct(lags, 95))} ms, max ${round(lags[lags.length - 1] as number)} ms over ${lags.length}`);
      await closeClient(a);
      await closeClient(b);
    }

    // 3. A fresh client pulling LARGE memories with vectors.
    if (!SKIP_LARGE) {
      const project = 'bench-large';
      const embedder = fakeEmbedder(DIMS, MODEL);
      const admin = await pg.admin();
      const seedStart = performance.now();
      let probe = '';
      try {
        const BATCH = 2000;
        for (let i = 0; i < LARGE; i += BATCH) {
          const ids: string[] = [], contents: string[] = [], vectors: Buffer[] = [];
          for (let j = i; j < Math.min(LARGE, i + BATCH); j++) {
            const content = text('big', j);
            if (j === Math.floor(LARGE / 2)) probe = content;
            ids.push(`big-${j}`);
            contents.push(content);
            vectors.push(Buffer.from(vectorToBlob(embedder.vector(content))));
          }
          await admin.query(`INSERT INTO agent_memory.memories (id, author, project, type, content, content_hash, created_at, model_id, dimensions, vector)
            SELECT id, 'b1', $4, 'fact', c, md5(c), '2026-06-01T00:00:00.000Z', $5, ${DIMS}, v FROM unnest($1::text[], $2::text[], $3::bytea[]) AS x(id, c, v)`,
          [ids, contents, vectors, project, MODEL]);
        }
      } finally {
        await admin.end();
      }
      result.largeSeedMs = round(performance.now() - seedStart);
      const child = spawnSync(process.execPath, ['--require', 'tsx/cjs', __filename, '--child-pull', pg.url('b2'), project, probe], {
        env: { ...process.env, PGPASSWORD: passwords.get('b2') }, encoding: 'utf8', maxBuffer: 1 << 20, timeout: 1_800_000,
      });
      if (child.status !== 0) throw new Error(`pull child failed: ${child.stderr}`);
      const r = JSON.parse(child.stdout.trim().split('\n').pop() as string) as Record<string, number | boolean>;
      const rounded = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v]));
      result.freshPull = { memories: LARGE, dims: DIMS, ...rounded, goalMs: 300_000 };
      console.log(`fresh client: pulled ${String(r.count)} in ${round(Number(r.pullMs) / 1000)} s, RSS ${round(Number(r.rssMb))} MB, searchable (lexical ${String(r.lexicalFound)}, vector ${String(r.vectorFound)}) after ${round(Number(r.searchableMs) / 1000)} s`);
    }
    result.totalSeconds = round((Date.now() - started) / 1000);
    result.loadavgAtEnd = loadavg().map((n) => round(n));
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    const file = ONLY_LARGE ? (LARGE === 100_000 ? 'team-pull.json' : `team-pull-${LARGE}.json`) : SKIP_LARGE ? 'team-without-pull.json' : 'team.json';
    writeFileSync(join(__dirname, 'results', file), JSON.stringify(result, null, 2) + '\n');
    console.log(`wrote bench/results/${file}`);
  } finally {
    await pg.stop();
  }
}

const childAt = args.indexOf('--child-pull');
if (childAt >= 0) {
  childPull(args[childAt + 1] as string, args[childAt + 2] as string, args[childAt + 3] as string).catch((e: unknown) => { console.error(e); process.exit(1); });
} else {
  main().catch((e: unknown) => { console.error(e); process.exit(1); });
}
