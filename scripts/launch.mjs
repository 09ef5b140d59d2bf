// `npm start`: launches Agent Memory in a real VS Code (code-server) on this machine.
// Installs the toolchain on first use, builds and packages the VSIX, installs it into a throwaway
// profile, copies the demo workspace to a temp folder, seeds the demo memory store, starts
// code-server on 127.0.0.1 and prints the URL. Ctrl+C stops the whole server process group.
// Usage: node scripts/launch.mjs [--port N] [--fake-model]
//   --fake-model  also install the offline scripted test model the integration tests use (it echoes
//                 its prompt, so it shows what @memory sends a model; it composes no real answer).
//                 By default the demo runs as a user without any chat model would see it: @memory
//                 answers with the recalled memories through Agent Memory's memory-only chat model.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureToolchain } from './vscode/install.mjs';
import { createProfile, installExtension, removeProfile, startCodeServer, workbenchUrl } from './vscode/codeServer.mjs';
import { packageFakeLanguageModel } from './vscode/vsix.mjs';
import { DEMO_WORKSPACE } from './vscode/session.mjs';
import { HarnessError, runStep, secondsSince } from './vscode/proc.mjs';
import { repoRoot } from './vscode/toolchain.mjs';
import { packageExtension } from './package.mjs';

/** Memories the demo store starts with (JSONL, one memory a line); seeding is skipped without it. */
export const DEMO_SEED_FILE = join(DEMO_WORKSPACE, '.agent-memory-seed.jsonl');
const SEED_TIMEOUT_MS = 10 * 60_000;
const DEMO_PROJECT = 'shelf';

function parsePort(argv) {
  const at = argv.indexOf('--port');
  if (at < 0) return undefined;
  const port = Number(argv[at + 1]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new HarnessError(`--port needs a number from 1 to 65535 (got ${argv[at + 1] ?? 'nothing'})`);
  return port;
}

/**
 * Seeds the demo memory store with `agent-memory ingest DEMO_SEED_FILE` (the CLI waits until the
 * memories are embedded and extracted). A no-op returning 0 when the seed file does not exist.
 */
export async function seedDemoStore(storeDir, seedFile = DEMO_SEED_FILE) {
  if (!existsSync(seedFile)) return 0;
  const t = Date.now();
  const { output } = await runStep(process.execPath, [join(repoRoot, 'dist', 'cli.js'), '--store', storeDir, 'ingest', seedFile], {
    cwd: repoRoot, timeoutMs: SEED_TIMEOUT_MS, label: 'seeding the demo store (agent-memory ingest)',
  });
  const ingested = /"ingested":(\d+)/.exec(output);
  console.log(`seeded the demo store from ${seedFile.replace(`${repoRoot}/`, '')} in ${secondsSince(t)} s: ${output.trim().split('\n').pop()}`);
  return ingested ? Number(ingested[1]) : readFileSync(seedFile, 'utf8').split('\n').filter((l) => l.trim()).length;
}

async function main() {
  const argv = process.argv.slice(2);
  const port = parsePort(argv);
  let profile;
  let server;
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    if (server) await server.stop().catch((err) => console.error(err.message));
    if (profile) removeProfile(profile);
    process.exit(code);
  };
  // Registered first: Ctrl+C during the install or packaging also cleans up.
  process.on('SIGINT', () => { console.log('\nstopping…'); void stop(0); });
  process.on('SIGTERM', () => void stop(0));

  await ensureToolchain({ browser: false });
  const vsix = await packageExtension();
  const fakeModel = argv.includes('--fake-model') ? await packageFakeLanguageModel() : undefined;
  if (stopping) return;
  profile = createProfile('launch');
  const storeDir = join(profile.dir, 'store');
  const workspace = join(profile.dir, DEMO_PROJECT);
  // The demo uses its own store folder, so it never touches a real store. agentMemory.store.path is
  // machine-scoped: in code-server (a remote window) it is read from the Machine settings file.
  mkdirSync(join(profile.userData, 'Machine'), { recursive: true });
  writeFileSync(join(profile.userData, 'Machine', 'settings.json'), JSON.stringify({ 'agentMemory.store.path': storeDir }, null, 2) + '\n');
  try {
    await installExtension(profile, vsix.file);
    if (fakeModel) await installExtension(profile, fakeModel);
    cpSync(DEMO_WORKSPACE, workspace, { recursive: true });
    await seedDemoStore(storeDir);
    if (stopping) return;
    server = await startCodeServer(profile, { port, folder: workspace });
  } catch (err) {
    console.error(`\nlaunch failed: ${err.message}`);
    await stop(1);
    return;
  }
  void server.exited.then(({ code, signal }) => {
    if (stopping) return;
    console.error(`code-server exited on its own (${signal ?? `exit code ${code}`}); see ${profile.serverLog}`);
    void stop(1);
  });
  console.log(`
Agent Memory is running in VS Code (code-server) — open:

  ${workbenchUrl(server, { folder: workspace })}

Workspace: ${workspace} (a copy of test/fixtures/demoWorkspace)
Memory store: ${storeDir}
Language model: ${fakeModel ? 'the offline scripted test model (--fake-model: it echoes the prompt @memory sends)' : 'none installed: @memory answers with the recalled memories (npm start -- --fake-model adds the scripted test model)'}
Profile, logs: ${profile.dir} (deleted on exit)
Press Ctrl+C to stop.`);
}

main().catch((err) => {
  console.error(`launch failed: ${err.message}`);
  process.exit(1);
});
