/**
 * The full CLI (every command), built to dist/fullCli.js and loaded by dist/cli.js (main.ts) for
 * everything but a hook call its service answers (hookFastPath.ts).
 */
import type { HookHandoff } from './hookFastPath';
import { runCli } from './run';
import { chooseWasmTiering } from './wasmTiering';

export function runFullCli(argv: readonly string[], hookHandoff?: HookHandoff): Promise<number> {
  chooseWasmTiering(argv);
  return runCli(argv, { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), ...(hookHandoff ? { hookHandoff } : {}) });
}
