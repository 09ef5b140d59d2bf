/**
 * The client side of the per-store hook service (hookService.ts): its address, the on/off switch
 * and one request/answer over the socket. Node builtins only, so the hook fast path
 * (hookFastPath.ts) can talk to the service without loading the full CLI bundle.
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';

export const SERVICE_ENV = 'AGENT_MEMORY_HOOK_SERVICE';
/** How long a client waits for the service's answer before answering in-process instead. */
export const CLIENT_TIMEOUT_MS = 15_000;

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
