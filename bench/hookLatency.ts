/**
 * `UserPromptSubmit` hook latency end to end, as an agent pays it: spawn `node dist/cli.js hook
 * --harness claude-code --store DIR`, write Claude Code's payload on stdin, wait for the process to
 * exit (process start, store open, model load, recall, injection write, close all included).
 * Stores of 1k / 10k / 100k synthetic agent notes filled in-process (recallCliPath.ts#directFill:
 * the real write path, int8 vectors from the real model plus noise, graph on a share of notes).
 * "cold" = the first hook call on a freshly built store (the OS cache holds what the fill wrote, so
 * it is cold for the process, not the disk); "warm" = the calls after it. Prompts rotate over
 * sessions (a new session every 5 prompts) so session starts are part of the mix. The machine's
 * load average is recorded at every step. Writes bench/results/hookLatency.json.
 *   node scripts/build.mjs && node --require tsx/cjs bench/hookLatency.ts [--sizes 1000,10000,100000] [--calls 40]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { askService } from '../src/cli/hookService';
import { directFill, note } from './recallCliPath';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] ?? def : def;
}

function call(store: string, payload: object, service: boolean): Promise<{ ms: number; out: string }> {
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'hook', '--harness', 'claude-code', '--store', store], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, AGENT_MEMORY_HOOK_SERVICE: service ? '1' : '0' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
    child.on('error', rej);
    child.on('exit', (code) => (code === 0 ? res({ ms: performance.now() - t0, out }) : rej(new Error(`hook exited ${code}`))));
    child.stdin.end(JSON.stringify(payload));
  });
}

function dist(xs: readonly number[]): { n: number; p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  const r = (x: number): number => Math.round(x);
  return { n: s.length, p50: r(at(0.5)), p95: r(at(0.95)), max: r(s[s.length - 1] ?? 0) };
}

async function main(): Promise<void> {
  const sizes = arg('sizes', '1000,10000').split(',').map(Number);
  const calls = Number(arg('calls', '30'));
  const results: Record<string, unknown>[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `agent-memory-hooklat-${size}-`));
    try {
      const loadBeforeFill = load();
      const contents = Array.from({ length: size }, (_, i) => note(i));
      const filled = await directFill(dir, contents, true, 10);
      const prompts = Array.from({ length: calls + 1 }, (_, i) => {
        const words = (contents[(i * 7919) % size] as string).replace(/[.;()]/g, '').split(' ').filter((w) => w.length > 3).slice(0, 4);
        return `How should we handle ${words.join(' ')} here?`;
      });
      for (const mode of ['process', 'service'] as const) {
        const service = mode === 'service';
        const loadAtCold = load();
        const cold = await call(dir, { session_id: `${mode}-0`, hook_event_name: 'UserPromptSubmit', cwd: '/w/bench', prompt: prompts[0] }, service);
        // the service starts detached on the first call; give it the time a user's typing would
        if (service) await new Promise((r) => setTimeout(r, 3_000));
        const warm: number[] = [];
        let injected = 0;
        let failed = 0;
        for (let i = 1; i <= calls; i++) {
          try {
            const r = await call(dir, { session_id: `${mode}-${Math.ceil(i / 5)}`, hook_event_name: 'UserPromptSubmit', cwd: '/w/bench', prompt: prompts[i] }, service);
            warm.push(r.ms);
            if (r.out.trim()) injected++;
          } catch { failed++; }
        }
        if (service) {
          await askService(dir, { stdin: '', stop: true });
          // The service removes its socket and writes its last log line as it exits: wait for that
          // before the folder is removed, or the line recreates it.
          for (let i = 0; i < 100 && existsSync(join(dir, 'hook.sock')); i++) await new Promise((r) => setTimeout(r, 100));
          await new Promise((r) => setTimeout(r, 500));
        }
        const row = { size, mode, fillMs: Math.round(filled.ms), coldMs: Math.round(cold.ms), warm: dist(warm), failed, injectedShare: injected / calls, loadAverage: { beforeFill: loadBeforeFill, atCold: loadAtCold, atEnd: load() } };
        console.log(`${size} ${mode}: cold ${row.coldMs} ms; warm p50 ${row.warm.p50} / p95 ${row.warm.p95} ms (n=${warm.length}, failed ${failed}); load ${row.loadAverage.atEnd.join(' ')}`);
        results.push(row);
      }
    } finally {
      // The stopped service may still be writing its last snapshot into the folder: retry briefly.
      rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
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
  const out = { bench: 'hookLatency', at: new Date().toISOString(), what: 'UserPromptSubmit end to end (spawn node dist/cli.js hook, payload on stdin, until exit): mode process = AGENT_MEMORY_HOOK_SERVICE=0 (all in the hook process), mode service = the per-store hook service answers', targets: { p95At10kMs: 250, p95At100kMs: 400 }, nodeStartMs: nodeStart, results };
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'hookLatency.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(`node -e 0 start: p50 ${nodeStart.p50} ms; load ${load().join(' ')}`);
}

void main();
