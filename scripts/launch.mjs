// `npm start`: launches Agent Memory in a real VS Code (code-server) on this machine.
// Installs the toolchain on first use, builds and packages the VSIX, installs it into a throwaway
// profile, copies the demo workspace to a temp folder, seeds the demo memory store, starts
// code-server on 127.0.0.1 and prints the URL. Ctrl+C stops the whole server process group.
// Usage: node scripts/launch.mjs [--port N] [--no-fake-model]
//   --no-fake-model  skip the offline scripted test model (without any language model, chat
//                    requests fail with "Language model unavailable" before @memory runs)
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureToolchain } from './vscode/install.mjs';
import { createProfile, installExtension, removeProfile, startCodeServer, workbenchUrl } from './vscode/codeServer.mjs';
import { packageFakeLanguageModel } from './vscode/vsix.mjs';
import { DEMO_WORKSPACE } from './vscode/session.mjs';
import { HarnessError, runStep } from './vscode/proc.mjs';
import { repoRoot } from './vscode/toolchain.mjs';
import { packageExtension } from './package.mjs';

/** Memories the demo store starts with (about the demo workspace); optional. */
export const DEMO_SEED_FILE = join(repoRoot, 'scripts', 'vscode', 'demoSeed.json');
const SEED_TIMEOUT_MS = 120_000;
const DEMO_PROJECT = 'shelf';

function parsePort(argv) {
  const at = argv.indexOf('--port');
  if (at < 0) return undefined;
  const port = Number(argv[at + 1]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new HarnessError(`--port needs a number from 1 to 65535 (got ${argv[at + 1] ?? 'nothing'})`);
  return port;
}

/**
 * Seeds the demo memory store through the CLI (`agent-memory remember`), one memory per entry of
 * DEMO_SEED_FILE ([{text, type?}]). A no-op when that file does not exist.
 */
export async function seedDemoStore(storeDir) {
  if (!existsSync(DEMO_SEED_FILE)) return 0;
  const seeds = JSON.parse(readFileSync(DEMO_SEED_FILE, 'utf8'));
  if (!Array.isArray(seeds)) throw new HarnessError(`${DEMO_SEED_FILE} must hold a JSON array of {text, type?}`);
  for (const seed of seeds) {
    await runStep(process.execPath, [join(repoRoot, 'dist', 'cli.js'), '--store', storeDir, 'remember',
      ...(seed.type ? ['--type', seed.type] : []), '--project', DEMO_PROJECT, seed.text], {
      cwd: repoRoot, timeoutMs: SEED_TIMEOUT_MS, label: 'seeding the demo store (agent-memory remember)',
    });
  }
  return seeds.length;
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
  const fakeModel = argv.includes('--no-fake-model') ? undefined : await packageFakeLanguageModel();
  if (stopping) return;
  profile = createProfile('launch');
  const storeDir = join(profile.dir, 'store');
  const workspace = join(profile.dir, DEMO_PROJECT);
  // The demo uses its own store folder, so it never touches a real store.
  const settingsFile = join(profile.userData, 'User', 'settings.json');
  writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(readFileSync(settingsFile, 'utf8')), 'agentMemory.store.path': storeDir }, null, 2) + '\n');
  try {
    await installExtension(profile, vsix.file);
    if (fakeModel) await installExtension(profile, fakeModel);
    cpSync(DEMO_WORKSPACE, workspace, { recursive: true });
    const seeded = await seedDemoStore(storeDir);
    if (seeded) console.log(`seeded the demo store with ${seeded} memories from ${DEMO_SEED_FILE.replace(`${repoRoot}/`, '')}`);
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
Memory store: ${storeDir}${fakeModel ? '\nLanguage model: the offline scripted test model (so @memory works without Copilot)' : ''}
Profile, logs: ${profile.dir} (deleted on exit)
Press Ctrl+C to stop.`);
}

main().catch((err) => {
  console.error(`launch failed: ${err.message}`);
  process.exit(1);
});
