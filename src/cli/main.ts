import { runCli } from './run';

runCli(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) })
  .then((code) => { process.exitCode = code; })
  .catch((e: unknown) => {
    process.stderr.write(`agent-memory: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
