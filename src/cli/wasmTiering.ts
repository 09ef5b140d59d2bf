/**
 * Which compiled code the SQLite engine's WebAssembly runs on in this CLI process. V8 compiles the
 * engine (778 KB of wasm) with its baseline compiler and then re-compiles the functions that run
 * often with its optimising compiler on background threads. A command that runs a few statements
 * and exits still paid for those compilations: the main thread blocked until they finished (a
 * futex wait after its first statements, or at exit), ~0.1 s of CPU and 60–150 ms of wall time of
 * every `stats` at 100k memories (docs/store.md, "Where the 100k open goes"). The commands below
 * run a handful of statements, so they stay on baseline code (`--liftoff-only`); every other
 * command (recall, ingest, maintenance, import, export, forget, store check / recover: many
 * statements, or a long session) keeps the optimised code.
 */
import { setFlagsFromString } from 'node:v8';
import { parseArgs } from './args';

export const BASELINE_WASM_COMMANDS: ReadonlySet<string> = new Set(['stats', 'get', 'version', 'help', 'config', 'pinned', 'pin', 'unpin']);

/** Whether the command in `argv` runs on baseline wasm code only (a bad command line: no, it fails anyway). */
export function runsOnBaselineWasm(argv: readonly string[]): boolean {
  try {
    return BASELINE_WASM_COMMANDS.has(parseArgs(argv).positionals[0] ?? '');
  } catch {
    return false;
  }
}

/** Call before the engine's wasm is compiled (the store's first open); V8 flags are process-wide. */
export function chooseWasmTiering(argv: readonly string[]): void {
  if (runsOnBaselineWasm(argv)) setFlagsFromString('--liftoff-only');
}
