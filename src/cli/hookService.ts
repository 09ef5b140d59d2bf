/**
 * The per-store hook service (docs/agents.md, "Latency"): a process per hook call pays process
 * start, store open and model load every time (~0.5 s at 10k memories, ~1.4 s at 100k,
 * docs/store.md), more than an agent should wait before every prompt. So the first hook call on a
 * store starts, detached, `agent-memory hook-service`, which keeps one engine open (store, model,
 * vector index warm) and answers hook calls over a local socket (`<store>/hook.sock`; a named pipe
 * on Windows) one at a time, through the same runHookEvent; later calls only connect, send the
 * payload and print the answer. It exits after `AGENT_MEMORY_HOOK_SERVICE_IDLE_MS` (default 120 s)
 * without a call, closing the engine (so the store's usual write lock and journal rules apply to
 * it like to any CLI process). `AGENT_MEMORY_HOOK_SERVICE=0` turns it off (every call in-process).
 */
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { userMessage } from '../core/errors';
import { parseHookEvent } from '../core/hooks/hookEvent';
import { runHookEvent } from '../core/hooks/hookHandlers';
import type { MemoryEngine } from '../core/engine/memoryEngine';
import type { ParsedArgs } from './args';
import { cliStoreDir, noCliLlm, openCliEngine } from './openCliStore';

export const SERVICE_ENV = 'AGENT_MEMORY_HOOK_SERVICE';
export const SERVICE_IDLE_ENV = 'AGENT_MEMORY_HOOK_SERVICE_IDLE_MS';
export const DEFAULT_IDLE_MS = 120_000;
/** How long a client waits for the service's answer before answering in-process instead. */
const CLIENT_TIMEOUT_MS = 15_000;

export interface ServiceRequest { readonly stdin: string; readonly event?: string; readonly harness?: string; /** Ends the service after answering (tests, benches). */ readonly stop?: boolean }
export interface ServiceReply { readonly stdout: string; readonly log: string }

export function serviceAddress(storeDir: string): string {
  return process.platform === 'win32' ? `\\\\.\\pipe\\agent-memory-${createHash('sha256').update(storeDir).digest('hex').slice(0, 16)}` : join(storeDir, 'hook.sock');
}

export const serviceEnabled = (env: NodeJS.ProcessEnv = process.env): boolean => env[SERVICE_ENV] !== '0';

/** Sends one hook call to the store's service; undefined when none answers (not running, stale, too slow). */
export function askService(storeDir: string, req: ServiceRequest, timeoutMs = CLIENT_TIMEOUT_MS): Promise<ServiceReply | undefined> {
  return new Promise((resolve) => {
    let done = false;
    let buf = '';
    const finish = (v: ServiceReply | undefined, s?: Socket): void => { if (!done) { done = true; clearTimeout(timer); s?.destroy(); resolve(v); } };
    const sock = connect(serviceAddress(storeDir));
    const timer = setTimeout(() => finish(undefined, sock), timeoutMs);
    sock.on('connect', () => sock.write(JSON.stringify(req) + '\n'));
    sock.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try { finish(JSON.parse(buf.slice(0, nl)) as ServiceReply, sock); } catch { finish(undefined, sock); }
    });
    sock.on('error', () => finish(undefined));
    sock.on('close', () => finish(undefined));
  });
}

/** Starts the store's service, detached, for the next calls (this call is answered in-process). */
export function startService(cliPath: string, storeDir: string): void {
  try {
    const child = spawn(process.execPath, [cliPath, 'hook-service', '--store', storeDir], { detached: true, stdio: 'ignore', windowsHide: true });
    child.unref();
  } catch { /* the next call tries again; this one is answered in-process anyway */ }
}

/**
 * `agent-memory hook-service --store DIR`: serves hook calls until idle. Exits quietly when another
 * service already answers on the address.
 */
export async function runHookService(args: ParsedArgs, log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const storeDir = cliStoreDir(args);
  const address = serviceAddress(storeDir);
  const idleMs = Number(env[SERVICE_IDLE_ENV]) > 0 ? Number(env[SERVICE_IDLE_ENV]) : DEFAULT_IDLE_MS;
  if (await askService(storeDir, { stdin: '' }) !== undefined) return 0;
  // a socket file nobody answers on is a dead service's leftover
  if (process.platform !== 'win32' && existsSync(address)) rmSync(address, { force: true });
  // the socket lives in the store folder, which the first call may not have created yet
  mkdirSync(storeDir, { recursive: true });
  let engine: MemoryEngine | undefined;
  const quiet = { stdout: () => undefined, stderr: (t: string) => log(`hook-service: ${t.trim()}`) };
  let queue: Promise<unknown> = Promise.resolve();
  let idle: ReturnType<typeof setTimeout> | undefined;
  let stopping: Promise<void> | undefined;
  const server = createServer((sock) => {
    let buf = '';
    sock.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      buf = '';
      queue = queue.then(async () => sock.end(JSON.stringify(await serve(line)) + '\n')).catch(() => sock.destroy());
    });
    sock.on('error', () => undefined);
  });
  const stop = (): Promise<void> => (stopping ??= (async () => {
    server.close();
    await queue.catch(() => undefined);
    if (engine) await engine.close().catch((e: unknown) => log(`hook-service: closing failed: ${userMessage(e)}`));
    if (process.platform !== 'win32') rmSync(address, { force: true });
    log(`hook-service: stopped (idle limit ${idleMs} ms)`);
  })());
  const touch = (): void => { if (idle) clearTimeout(idle); idle = setTimeout(() => void stop(), idleMs); };
  async function serve(line: string): Promise<ServiceReply> {
    // no idle countdown while a call is being answered (a first call may take seconds)
    if (idle) clearTimeout(idle);
    const started = Date.now();
    let req: ServiceRequest;
    try { req = JSON.parse(line) as ServiceRequest; } catch { return { stdout: '', log: 'ERROR bad service request' }; }
    if (req.stop) { setImmediate(() => void stop()); return { stdout: '', log: 'hook-service: stop requested' }; }
    if (!req.stdin) return { stdout: '', log: 'ping' };
    let label = 'hook';
    try {
      const event = parseHookEvent(req.stdin, { ...(req.event ? { event: req.event } : {}), ...(req.harness ? { harness: req.harness } : {}) });
      label = `${event.harness} ${event.event} session=${event.sessionId.slice(0, 80)}`;
      engine ??= await openCliEngine(args, quiet, { llm: noCliLlm, settings: { 'models.intraOpThreads': 1 } });
      const r = await runHookEvent(engine, event);
      return { stdout: r.output ? JSON.stringify(r.output) + '\n' : '', log: `${label}: ok in ${Date.now() - started} ms (service): ${r.note}` };
    } catch (e) {
      return { stdout: '', log: `${label}: ERROR ${userMessage(e)} (after ${Date.now() - started} ms, service; nothing answered)` };
    } finally { touch(); }
  }
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(address, () => resolve()); }).catch((e: unknown) => {
    log(`hook-service: cannot listen on ${address}: ${userMessage(e)}`);
    throw e;
  });
  touch();
  log(`hook-service: serving ${storeDir} (pid ${process.pid})`);
  await new Promise<void>((resolve) => server.on('close', () => resolve()));
  await stop();
  return 0;
}
