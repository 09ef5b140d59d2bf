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
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { userMessage } from '../core/errors';
import { parseHookEvent } from '../core/hooks/hookEvent';
import { runHookEvent } from '../core/hooks/hookHandlers';
import { lexicalIndexFor } from '../core/recall/lexicalIndex';
import type { MemoryEngine } from '../core/engine/memoryEngine';
import type { ParsedArgs } from './args';
import { askService, serviceAddress } from './hookServiceClient';
import type { ServiceReply, ServiceRequest } from './hookServiceClient';
import { cliStoreDir, noCliLlm, openCliEngine } from './openCliStore';

export const SERVICE_IDLE_ENV = 'AGENT_MEMORY_HOOK_SERVICE_IDLE_MS';
export const DEFAULT_IDLE_MS = 120_000;

function isPing(line: string): boolean {
  try {
    const req = JSON.parse(line) as Partial<ServiceRequest>;
    return !req.stdin && !req.stop;
  } catch { return false; }
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
  const engineOf = async (): Promise<MemoryEngine> => (engine ??= await openCliEngine(args, quiet, { llm: noCliLlm, settings: { 'models.intraOpThreads': 1 } }));
  let queue: Promise<unknown> = Promise.resolve();
  let warmed = false;
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
      // A ping (a starting service checking for another, a bench waiting for the warm-up) is
      // answered at once, not behind the calls and the warm-up in the queue.
      if (isPing(line)) { sock.end(JSON.stringify({ stdout: '', log: warmed ? 'ping' : 'ping: warming up' }) + '\n'); return; }
      queue = queue.then(async () => {
        const { reply, after } = await serve(line);
        sock.end(JSON.stringify(reply) + '\n');
        if (after) await after();
      }).catch(() => sock.destroy()).finally(touch);
    });
    sock.on('error', () => undefined);
  });
  const stop = (): Promise<void> => (stopping ??= (async () => {
    // A stop request's own call re-armed the idle countdown on its way out (touch, before this
    // ran): a live timer would keep the process up for the whole idle limit after it stopped.
    if (idle) clearTimeout(idle);
    server.close();
    // The address is free from now on (a next call starts a new service while this one closes
    // its engine): removing it later could remove that successor's socket.
    if (process.platform !== 'win32') rmSync(address, { force: true });
    await queue.catch(() => undefined);
    if (engine) await engine.close().catch((e: unknown) => log(`hook-service: closing failed: ${userMessage(e)}`));
    log(`hook-service: stopped (idle limit ${idleMs} ms)`);
  })());
  const touch = (): void => { if (idle) clearTimeout(idle); if (!stopping) idle = setTimeout(() => void stop(), idleMs); };
  /** The answer to one request, and the bookkeeping to run once it is sent (hookHandlers.ts, HookRunOptions). */
  async function serve(line: string): Promise<{ reply: ServiceReply; after?: () => Promise<void> }> {
    // no idle countdown while a call is being answered (a first call may take seconds)
    if (idle) clearTimeout(idle);
    const started = Date.now();
    let req: ServiceRequest;
    try { req = JSON.parse(line) as ServiceRequest; } catch { return { reply: { stdout: '', log: 'ERROR bad service request' } }; }
    if (req.stop) { setImmediate(() => void stop()); return { reply: { stdout: '', log: 'hook-service: stop requested' } }; }
    if (!req.stdin) return { reply: { stdout: '', log: 'ping' } };
    let label = 'hook';
    try {
      const event = parseHookEvent(req.stdin, { ...(req.event ? { event: req.event } : {}), ...(req.harness ? { harness: req.harness } : {}) });
      label = `${event.harness} ${event.event} session=${event.sessionId.slice(0, 80)}`;
      const deferred: (() => Promise<string>)[] = [];
      const r = await runHookEvent(await engineOf(), event, { defer: (work) => deferred.push(work) });
      const reply = { stdout: r.output ? JSON.stringify(r.output) + '\n' : '', log: `${label}: ok in ${Date.now() - started} ms (service): ${r.note}` };
      if (!deferred.length) return { reply };
      const at = label;
      return {
        reply,
        after: async () => {
          const t0 = Date.now();
          for (const work of deferred) {
            try {
              const note = await work();
              log(`${at}: after the answer, ok in ${Date.now() - t0} ms (service)${note ? `: ${note}` : ''}`);
            } catch (e) { log(`${at}: after the answer, ERROR ${userMessage(e)} (after ${Date.now() - t0} ms, service)`); }
          }
        },
      };
    } catch (e) {
      return { reply: { stdout: '', log: `${label}: ERROR ${userMessage(e)} (after ${Date.now() - started} ms, service; nothing answered)` } };
    }
  }
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(address, () => resolve()); }).catch((e: unknown) => {
    log(`hook-service: cannot listen on ${address}: ${userMessage(e)}`);
    throw e;
  });
  touch();
  log(`hook-service: serving ${storeDir} (pid ${process.pid})`);
  // Warm up before the first call arrives (it queues behind this): open the store, load the
  // model, build the vector and lexical indexes and let V8 compile the recall path, so that even
  // the first answered call costs only its own recall (docs/agents.md, "Latency"). The probe
  // recall records nothing (track: false).
  queue = queue.then(async () => {
    // no idle countdown during the warm-up (seconds at 100k memories)
    if (idle) clearTimeout(idle);
    const t0 = Date.now();
    const missed: string[] = [];
    try {
      const e = await engineOf();
      // each step on its own: a model that cannot load here still leaves the indexes warm
      await e.warm().catch((err: unknown) => missed.push(`model: ${userMessage(err)}`));
      try {
        e.store.read((db) => lexicalIndexFor(e.store).sync(db));
        await e.recallDetailed({ query: 'warm up the recall path', limit: 8 }, { track: false, explain: true });
      } catch (err) { missed.push(`recall: ${userMessage(err)}`); }
      log(`hook-service: warm in ${Date.now() - t0} ms${missed.length ? ` (not all: ${missed.join('; ')})` : ''}`);
    } catch (err) { log(`hook-service: warm-up failed (the first call opens the store again): ${userMessage(err)}`); }
    warmed = true;
    touch();
  });
  await new Promise<void>((resolve) => server.on('close', () => resolve()));
  await stop();
  return 0;
}
