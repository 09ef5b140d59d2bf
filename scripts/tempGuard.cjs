// Every test layer runs with its own temp folder (TMPDIR for the runner and everything it starts:
// mocha, code-server, the extension host, Chromium) and checks it at the end, like the harness
// checks for leftover processes: a test that leaves an agent-memory-* (or am-*, devset-*) folder
// behind fails the layer. A folder of its own, not a before/after listing of the shared temp
// directory, so tests of other runs on the same machine are never blamed.
const { chmodSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** Names our tests and tools give their temp folders (test/unit/helpers/tempDir.ts, mkdtemp calls). */
const OURS = /^(agent-memory-|am-|devset-)/;
/** Environment variable holding the run's temp folder (set by the runner for its children). */
const RUN_TEMP_ENV = 'AGENT_MEMORY_RUN_TEMP';

/**
 * Creates the run's temp folder inside the system temp directory; returns its path. It is made
 * traversable (0711, not listable) because the team tests run a real PostgreSQL server as an
 * unprivileged service user in a folder of its own below it (test/unit/helpers/postgresServer.ts);
 * mkdtemp's 0700 would lock that user out of its own data directory.
 */
function createRunTemp(layer) {
  const dir = mkdtempSync(join(tmpdir(), `agent-memory-run-${layer}-`));
  chmodSync(dir, 0o711);
  return dir;
}

/** Our folders and files left in the run's temp folder (names, sorted). */
function leftoversIn(runTemp) {
  let names;
  try {
    names = readdirSync(runTemp);
  } catch {
    return [];
  }
  return names.filter((n) => OURS.test(n)).sort();
}

/** Removes the run's temp folder with whatever tools (tsx, Chromium, sockets) left in it. */
function removeRunTemp(runTemp) {
  rmSync(runTemp, { recursive: true, force: true, maxRetries: 3 });
}

/** A one-line failure message for leftovers, or undefined when there are none. */
function leftoverMessage(runTemp, names) {
  if (names.length === 0) return undefined;
  const shown = names.slice(0, 12).join(', ');
  return `temp folders left behind by tests (${names.length}) in ${runTemp}: ${shown}${names.length > 12 ? ', …' : ''}`;
}

module.exports = { OURS, RUN_TEMP_ENV, createRunTemp, leftoversIn, leftoverMessage, removeRunTemp };
