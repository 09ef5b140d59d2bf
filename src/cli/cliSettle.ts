/**
 * How a CLI command that wrote memories finishes: it runs the engine's background jobs in this
 * process until they are all done (`engine.settle()`), saying on stderr what it waits for and how
 * far the jobs got.
 */
import type { ProgressReporter } from '../core/hostContext';
import { parseLeaseOwner } from '../core/jobs/leaseOwner';
import type { SettleWait } from '../core/jobs/settle';
import type { MemoryEngine } from '../core/engine/memoryEngine';
import type { CliIo } from './run';

/** Longest a CLI command waits for background work before giving up (E_TIMEOUT). */
export const CLI_SETTLE_MAX_MS = 30 * 60_000;
/** How often (at most) the CLI repeats an unchanged "waiting for background jobs" line. */
const WAIT_REPEAT_MS = 10_000;
/** Job progress lines: none during the first PROGRESS_FIRST_MS, then at most one per PROGRESS_EVERY_MS. */
const PROGRESS_FIRST_MS = 2_000;
const PROGRESS_EVERY_MS = 5_000;

/** One line saying what a settling CLI command waits for (jobs another live process holds, or retry backoff). */
export function describeSettleWait(wait: SettleWait): string {
  const held = wait.heldBy.map((h) => {
    const who = parseLeaseOwner(h.owner);
    const by = who ? `process ${who.pid} on ${who.host}` : `worker ${h.owner}`;
    return `${h.jobs} leased by ${by}${h.until ? ` until ${h.until}` : ''}`;
  });
  return `agent-memory: waiting for ${wait.unfinished} background job(s)${held.length ? ` (${held.join('; ')})` : ' (retrying after a failure)'}; Ctrl+C stops waiting, the jobs stay queued\n`;
}

/** Job progress on stderr: first after a short pause (a quick ingest stays quiet), then at most every PROGRESS_EVERY_MS. */
export function cliJobProgress(io: CliIo): ProgressReporter {
  const started = Date.now();
  let lastProgress = 0;
  return {
    report: (u) => {
      const now = Date.now();
      if (!u.message || now - started < PROGRESS_FIRST_MS || now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      io.stderr(`agent-memory: background jobs (embedding, extraction): ${u.message}\n`);
    },
  };
}

/** Runs the engine's jobs until they are all done, saying on stderr what it waits for and what failed. */
export async function settleCli(engine: MemoryEngine, io: CliIo): Promise<void> {
  let last = { line: '', at: 0 };
  const onWait = (wait: SettleWait): void => {
    const line = describeSettleWait(wait);
    const now = Date.now();
    if (line === last.line && now - last.at < WAIT_REPEAT_MS) return;
    last = { line, at: now };
    io.stderr(line);
  };
  const stats = await engine.settle({ maxWaitMs: CLI_SETTLE_MAX_MS, onWait });
  if (stats.dead) io.stderr(`agent-memory: ${stats.dead} background job(s) failed; see \`agent-memory stats\`\n`);
}
