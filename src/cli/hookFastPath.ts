/**
 * The hook fast path (docs/agents.md, "Latency"): `agent-memory hook --harness H --store DIR`, as
 * the written hook configurations run it, is answered by the store's hook service on almost every
 * call. Loading the full CLI bundle for that (its 1 MB of JavaScript, the SQLite engine's loader,
 * the PostgreSQL client, …) cost more than the answer itself, so dist/cli.js loads only this
 * module first: it reads stdin, asks the service and prints its answer. When no service answers
 * (the first call on a store, a stale socket, a timeout) or the command line is anything other
 * than that plain form, the full CLI (fullCli.ts) takes over with the stdin already read, starts
 * the service and answers in-process exactly as before. Node builtins and small modules only.
 */
import { resolve } from 'node:path';
import { log } from './hookLog';
import { askService, serviceEnabled } from './hookServiceClient';
import { readStdin } from './readStdin';

/** What the fast path read before handing over to the full CLI (which must not read stdin again). */
export interface HookHandoff {
  readonly stdin: string;
  /** The service was asked and did not answer: the full CLI starts one and answers in-process without asking again. */
  readonly serviceAsked: boolean;
}

export interface FastHookPlan { readonly storeDir: string; readonly event?: string; readonly harness?: string }

/** `AGENT_MEMORY_HOOK_FAST_PATH=0`: every hook call loads the full CLI (the path before this one; bench/hookLatency.ts compares them). */
export const FAST_PATH_ENV = 'AGENT_MEMORY_HOOK_FAST_PATH';
const FAST_FLAGS: ReadonlySet<string> = new Set(['store', 'event', 'harness']);

/**
 * The plan for `argv` when it is a plain hook call the fast path can take: the `hook` command with
 * only --store / --event / --harness (each once, with a value) and a store named by --store or
 * AGENT_MEMORY_STORE (the store-path setting, read from config files, is the full CLI's business).
 * Anything else (install/uninstall, other flags, the service turned off) is undefined: full CLI.
 */
export function fastHookPlan(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): FastHookPlan | undefined {
  if (!serviceEnabled(env) || env[FAST_PATH_ENV] === '0') return undefined;
  let sawHook = false;
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === 'hook' && !sawHook) { sawHook = true; continue; }
    const m = /^--([a-z]+)(?:=(.*))?$/s.exec(a);
    if (!m || !FAST_FLAGS.has(m[1] as string) || values.has(m[1] as string)) return undefined;
    const value = m[2] ?? argv[++i];
    if (!value || (m[2] === undefined && value.startsWith('--'))) return undefined;
    values.set(m[1] as string, value);
  }
  if (!sawHook) return undefined;
  const store = values.get('store') ?? env.AGENT_MEMORY_STORE;
  if (!store) return undefined;
  const event = values.get('event');
  const harness = values.get('harness');
  return { storeDir: resolve(store), ...(event ? { event } : {}), ...(harness ? { harness } : {}) };
}

/**
 * Answers one hook call through the store's service. Undefined when it was answered (or stdin could
 * not be read: logged, nothing answered, exit 0 as always); the handoff when the full CLI must answer.
 */
export async function runFastHook(plan: FastHookPlan, write: (text: string) => void = (t) => { process.stdout.write(t); }): Promise<HookHandoff | undefined> {
  let stdin: string;
  try { stdin = await readStdin(); } catch (e) {
    log(plan.storeDir, `hook: ERROR reading stdin: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  const reply = await askService(plan.storeDir, { stdin, ...(plan.event ? { event: plan.event } : {}), ...(plan.harness ? { harness: plan.harness } : {}) });
  if (!reply) return { stdin, serviceAsked: true };
  if (reply.stdout) write(reply.stdout);
  log(plan.storeDir, reply.log);
  return undefined;
}
