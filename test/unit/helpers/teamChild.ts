/**
 * A team-memory client in its own process, for the kill -9 tests (test/unit/team/teamCrash.test.ts).
 *   push DIR URL PROJECT N   connect the store in DIR, share PROJECT, write N memories, push in
 *                            batches of 20, printing "acked" after each batch the store recorded
 *   pull DIR URL PROJECT     connect, share PROJECT, pull in batches of 50, printing "pulled" after
 *                            each applied batch
 * The password comes from PGPASSWORD, as for the CLI.
 */
import { writeSync } from 'node:fs';
import { systemClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { DEFAULT_REDACTION_CONFIG } from '../../../src/core/config/redactionConfig';
import { resolveTeamConfig } from '../../../src/core/config/teamConfig';
import { createStreamLogger } from '../../../src/core/logger';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openStore } from '../../../src/core/store/openStore';
import { connectStore, shareProject } from '../../../src/core/team/teamAdmin';
import { TeamSync } from '../../../src/core/team/teamSync';

const [mode, dir, url, project, nText] = process.argv.slice(2) as [string, string, string, string, string?];
const say = (line: string): void => { writeSync(1, `${line}\n`); };

async function main(): Promise<void> {
  const logger = createStreamLogger('warn');
  const store = await openStore({ dir, logger, config: { lockTimeoutMs: 60_000 } });
  await connectStore(store, url, undefined);
  await shareProject(store, project, true);
  if (mode === 'push') {
    const n = Number(nText);
    const now = new Date().toISOString();
    await store.write('seed', (db) => { for (let i = 0; i < n; i++) insertMemory(db, { content: `crash push memory number ${i} of ${project}`, project, createdAt: now }); });
  }
  store.onDidChange((c) => {
    if (c.labels.includes('team.ack')) say('acked');
    if (c.labels.includes('team.pull')) say('pulled');
  });
  say('ready');
  const sync = new TeamSync({ store, clock: systemClock, logger, config: resolveTeamConfig({ pushBatch: 20, pullBatch: 50 }), redaction: DEFAULT_REDACTION_CONFIG, jobs: DEFAULT_JOBS_CONFIG, extract: false });
  if (mode === 'push') await sync.push(); else await sync.pull();
  say('done');
  await sync.stop();
  await store.close();
}

main().catch((e: unknown) => {
  writeSync(2, `team child failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(3);
});
