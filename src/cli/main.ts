import { userMessage } from '../core/errors';
import { checkRawArgs } from './rawArgs';
import { runCli } from './run';
import { chooseWasmTiering } from './wasmTiering';

const argv = process.argv.slice(2);
let rawProblem: string | undefined;
try { checkRawArgs(argv.length); } catch (e) { rawProblem = userMessage(e); }

if (rawProblem !== undefined) {
  process.stderr.write(`agent-memory: ${rawProblem}\n`);
  process.exitCode = 1;
} else {
  chooseWasmTiering(argv);
  runCli(argv, { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) })
    .then((code) => { process.exitCode = code; })
    .catch((e: unknown) => {
      process.stderr.write(`agent-memory: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    });
}
