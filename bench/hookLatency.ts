/**
 * `UserPromptSubmit` hook latency end to end, as an agent pays it: spawn `node dist/cli.js hook
 * --harness claude-code --store DIR` (the command line the written hook configurations run), write
 * Claude Code's payload on stdin, wait for the process to exit. Stores of 1k / 10k / 100k
 * synthetic agent notes filled in-process (recallCliPath.ts#directFill: the real write path, int8
 * vectors from the real model plus noise, graph on a share of notes). docs/agents.md, "Latency".
 *
 * Per size, `--colds` rounds of:
 *  - cold: no hook service running; the call answers in-process (process start, store open, model
 *    load, recall, close) and starts the service after answering;
 *  - ready: how long the started service takes to be warm (store, model, vector and lexical
 *    indexes; its ping says 'ping' once the warm-up is done);
 *  - warm: `--calls` pairs, each pair one call through the new path (dist/cli.js's hook fast path:
 *    a small entry that only talks to the service) and one through the old path
 *    (AGENT_MEMORY_HOOK_FAST_PATH=0: the full CLI bundle loads, then asks the service), in
 *    alternating order, so both see the same load: their ratio is the robust figure on a busy
 *    machine. `--gap-ms` between calls stands for the user's typing time (the service does the
 *    session bookkeeping of a prompt right after answering it).
 * Then `--process-calls` calls with the service off (AGENT_MEMORY_HOOK_SERVICE=0), for reference.
 * Prompts are built from stored notes' words; a new session every 5 prompts. The load average is
 * recorded at every step. Writes bench/results/hookLatency.json.
 *   npm run build && node --require tsx/cjs bench/hookLatency.ts [--sizes 1000,10000,100000] [--colds 3] [--calls 20]
 *     [--gap-ms 1000] [--process-calls 3] [--stores DIR (keep the filled stores there and reuse them; each run works on a copy)]
 *     [--out hookLatency.json]
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { askService } from '../src/cli/hookServiceClient';
import { openStore } from '../src/core/store/openStore';
import { directFill, note } from './recallCliPath';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] ?? def : def;
}

type Path = 'new' | 'old' | 'process';
const ENV: Record<Path, NodeJS.ProcessEnv> = {
  new: { AGENT_MEMORY_HOOK_SERVICE: '1', AGENT_MEMORY_HOOK_FAST_PATH: '1' },
  old: { AGENT_MEMORY_HOOK_SERVICE: '1', AGENT_MEMORY_HOOK_FAST_PATH: '0' },
  process: { AGENT_MEMORY_HOOK_SERVICE: '0' },
};

function call(store: string, payload: object, path: Path): Promise<{ ms: number; out: string }> {
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'hook', '--harness', 'claude-code', '--store', store], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...ENV[path] } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
    child.on('error', rej);
    child.on('exit', (code) => (code === 0 ? res({ ms: performance.now() - t0, out }) : rej(new Error(`hook exited ${code}`))));
    child.stdin.end(JSON.stringify(payload));
  });
}

interface Dist { n: number; p50: number; p95: number; max: number }
function dist(xs: readonly number[]): Dist {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  const r = (x: number): number => Math.round(x);
  return { n: s.length, p50: r(at(0.5)), p95: r(at(0.95)), max: r(s[s.length - 1] ?? 0) };
}
const median = (xs: readonly number[]): number => dist(xs).p50;

const stoppedLines = (store: string): number => {
  try { return (readFileSync(join(store, 'hooks.log'), 'utf8').match(/hook-service: stopped/g) ?? []).length; } catch { return 0; }
};

/** Stops the store's service and waits until it has closed its engine and written its last line. */
async function stopService(store: string): Promise<void> {
  const before = stoppedLines(store);
  const reply = await askService(store, { stdin: '', stop: true }, 60_000);
  if (!reply) return;
  for (let i = 0; i < 1200 && stoppedLines(store) === before; i++) await sleep(100);
  await sleep(300);
}

/** Waits until the service's ping says it is warm; ms from now. */
async function waitReady(store: string): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < 6000; i++) {
    if ((await askService(store, { stdin: '' }))?.log === 'ping') return performance.now() - t0;
    await sleep(100);
  }
  throw new Error('the hook service was not warm after 10 minutes');
}

/** Prompts from the words of stored notes (so recall has something to find, and sometimes does not). */
async function promptsOf(dir: string, n: number): Promise<string[]> {
  const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
  try {
    const size = store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n ?? 0);
    return Array.from({ length: n }, (_, i) => {
      const content = store.read((db) => db.get<{ c: string }>('SELECT content AS c FROM memories WHERE rowid = ?', [1 + ((i * 7919) % Math.max(1, size))])?.c ?? 'deploy the service');
      const words = content.replace(/[.;()]/g, '').split(' ').filter((w) => w.length > 3).slice(0, 4);
      return `How should we handle ${words.join(' ')} here?`;
    });
  } finally { await store.close(); }
}

async function storeFor(size: number, keep: string | undefined): Promise<{ dir: string; fillMs?: number; cleanup: () => void }> {
  const work = mkdtempSync(join(tmpdir(), `agent-memory-hooklat-${size}-`));
  // The stopped service may still be writing its last snapshot into the folder: retry briefly.
  const cleanup = (): void => rmSync(work, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  const base = keep ? join(keep, String(size)) : work;
  let fillMs: number | undefined;
  if (!existsSync(join(base, 'journal.tip'))) {
    fillMs = Math.round((await directFill(base, Array.from({ length: size }, (_, i) => note(i)), true, 10)).ms);
  }
  if (keep) cpSync(base, work, { recursive: true });
  return { dir: work, ...(fillMs !== undefined ? { fillMs } : {}), cleanup };
}

async function main(): Promise<void> {
  const sizes = arg('sizes', '1000,10000,100000').split(',').map(Number);
  const colds = Number(arg('colds', '3'));
  const calls = Number(arg('calls', '20'));
  const gapMs = Number(arg('gap-ms', '1000'));
  const processCalls = Number(arg('process-calls', '3'));
  const keep = process.argv.includes('--stores') ? arg('stores', '') : undefined;
  const results: Record<string, unknown>[] = [];
  for (const size of sizes) {
    const loadBeforeFill = load();
    const store = await storeFor(size, keep);
    const dir = store.dir;
    try {
      const prompts = await promptsOf(dir, colds * (2 * calls + 1) + processCalls);
      let p = 0;
      const payload = (session: string): object => ({ session_id: session, hook_event_name: 'UserPromptSubmit', cwd: '/w/bench', prompt: prompts[p++ % prompts.length] });
      const cold: number[] = [], ready: number[] = [], coldLoad: number[][] = [];
      let failed = 0;
      const warm: Record<'new' | 'old', number[]> = { new: [], old: [] };
      const ratios: number[] = [];
      const injected: Record<'new' | 'old', number> = { new: 0, old: 0 };
      for (let c = 0; c < colds; c++) {
        await stopService(dir);
        coldLoad.push(load());
        // a cold call that fails (at heavy load it can pass the hook's 20 s deadline) still starts the service
        try { cold.push((await call(dir, payload(`cold-${c}`), 'new')).ms); } catch { failed++; }
        ready.push(await waitReady(dir));
        for (let i = 0; i < calls; i++) {
          const pair: Partial<Record<'new' | 'old', number>> = {};
          for (const path of (i % 2 ? ['new', 'old'] : ['old', 'new']) as ('new' | 'old')[]) {
            await sleep(gapMs);
            try {
              const r = await call(dir, payload(`${path}-${c}-${Math.floor(i / 5)}`), path);
              warm[path].push(r.ms);
              pair[path] = r.ms;
              if (r.out.trim()) injected[path]++;
            } catch { failed++; }
          }
          if (pair.new && pair.old) ratios.push(pair.old / pair.new);
        }
        console.log(`${size} round ${c + 1}: cold ${Math.round(cold[cold.length - 1] ?? NaN)} ms, ready after ${Math.round(ready[c] as number)} ms; warm new p50 ${dist(warm.new).p50} / old p50 ${dist(warm.old).p50} ms so far; load ${load().join(' ')}`);
      }
      await stopService(dir);
      const inProcess: number[] = [];
      for (let i = 0; i < processCalls; i++) {
        await sleep(gapMs);
        try { inProcess.push((await call(dir, payload(`process-${i}`), 'process')).ms); } catch { failed++; }
      }
      const row = {
        size,
        ...(store.fillMs !== undefined ? { fillMs: store.fillMs } : {}),
        cold: { runsMs: cold.map(Math.round), medianMs: median(cold), loadAtEach: coldLoad },
        serviceReadyAfterColdMs: { runsMs: ready.map(Math.round), medianMs: median(ready) },
        warmNewPath: dist(warm.new),
        warmOldPath: dist(warm.old),
        oldOverNew: { medianOfPairRatios: Math.round(median(ratios.map((r) => r * 1000))) / 1000, pairs: ratios.length, p50Ratio: Math.round(dist(warm.old).p50 / Math.max(1, dist(warm.new).p50) * 1000) / 1000 },
        injectedShare: { new: injected.new / Math.max(1, warm.new.length), old: injected.old / Math.max(1, warm.old.length) },
        processMode: dist(inProcess),
        failed,
        loadAverage: { beforeFill: loadBeforeFill, atEnd: load() },
      };
      console.log(`${size}: cold median ${row.cold.medianMs} ms; service ready +${row.serviceReadyAfterColdMs.medianMs} ms; warm new p50 ${row.warmNewPath.p50} / p95 ${row.warmNewPath.p95}, old p50 ${row.warmOldPath.p50} / p95 ${row.warmOldPath.p95} ms; old/new ${row.oldOverNew.medianOfPairRatios}; service off p50 ${row.processMode.p50} ms; failed ${failed}; load ${row.loadAverage.atEnd.join(' ')}`);
      results.push(row);
      write(results, { colds, calls, gapMs, processCalls });
    } finally {
      await stopService(dir);
      store.cleanup();
    }
  }
  const nodeStart = await (async () => {
    const xs: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await new Promise<void>((res) => spawn(process.execPath, ['-e', '0']).on('exit', () => res()));
      xs.push(performance.now() - t0);
    }
    return dist(xs);
  })();
  write(results, { colds, calls, gapMs, processCalls }, nodeStart);
  console.log(`node -e 0 start: p50 ${nodeStart.p50} ms; load ${load().join(' ')}`);
}

/** Writes what was measured so far (a long run at 100k keeps the sizes before it). */
function write(results: readonly Record<string, unknown>[], settings: Record<string, number>, nodeStart?: Dist): void {
  const out = {
    bench: 'hookLatency',
    at: new Date().toISOString(),
    what: 'UserPromptSubmit end to end (spawn node dist/cli.js hook, payload on stdin, until exit). cold = no hook service running (answered in-process, service started after); warm new path = dist/cli.js hook fast path to the warm service; warm old path = AGENT_MEMORY_HOOK_FAST_PATH=0 (full CLI bundle loaded, then the service asked), interleaved with the new path; processMode = AGENT_MEMORY_HOOK_SERVICE=0',
    targets: { p95At10kMs: 250, p95At100kMs: 400 },
    settings,
    cores: cpus().length,
    ...(nodeStart ? { nodeStartMs: nodeStart } : {}),
    results,
  };
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', arg('out', 'hookLatency.json')), JSON.stringify(out, null, 2) + '\n');
}

void main();
