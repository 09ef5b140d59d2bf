/**
 * `agent-memory` (dist/cli.js). Kept small: a plain hook call that the store's hook service answers
 * never loads the full CLI (hookFastPath.ts, docs/agents.md "Latency"); everything else loads
 * dist/fullCli.js (fullCli.ts; esbuild.mjs keeps it a bundle of its own).
 */
import { userMessage } from '../core/errors';
import { fastHookPlan, runFastHook } from './hookFastPath';
import { checkRawArgs } from './rawArgs';

const argv = process.argv.slice(2);
let rawProblem: string | undefined;
try { checkRawArgs(argv.length); } catch (e) { rawProblem = userMessage(e); }

async function main(): Promise<number> {
  const plan = fastHookPlan(argv);
  const handoff = plan ? await runFastHook(plan) : undefined;
  if (plan && !handoff) return 0;
  const { runFullCli } = await import('./fullCli.js');
  return runFullCli(argv, handoff);
}

if (rawProblem !== undefined) {
  process.stderr.write(`agent-memory: ${rawProblem}\n`);
  process.exitCode = 1;
} else {
  main()
    .then((code) => { process.exitCode = code; })
    .catch((e: unknown) => {
      process.stderr.write(`agent-memory: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    });
}
