/**
 * A child process for the store's multi-process tests (run with `node --require tsx/cjs`).
 *   loop DIR PREFIX            write memories until killed; print "ack <id>" after each durable write
 *   batch DIR PREFIX N TOTAL   write N memories (25 in flight), then wait until TOTAL memories whose
 *                              content starts with "w" are visible; print "saw <count>" and exit
 * Small snapshot/rotation thresholds make kills land inside snapshots and rotations too.
 */
import { writeSync } from 'node:fs';
import { countMemories, insertMemory } from '../../../src/core/memory/memoryRecords';
import { openStore } from '../../../src/core/store/openStore';
import { createStreamLogger } from '../../../src/core/logger';

const [mode, dir, prefix, nText, totalText] = process.argv.slice(2) as [string, string, string, string?, string?];
const say = (line: string): void => { writeSync(1, `${line}\n`); };
const now = (): string => new Date().toISOString();
const IN_FLIGHT = 25;

async function loop(): Promise<void> {
  const store = await openStore({ dir, logger: createStreamLogger('warn'), config: { snapshotEveryRecords: 40, snapshotDelayMs: 0, journalRotateBytes: 8192, snapshotEveryBytes: 8192 } });
  say('ready');
  for (let i = 0; ; i++) {
    const { id } = await store.write('remember', (w) => insertMemory(w, { content: `${prefix} crash memory ${i}`, createdAt: now() }));
    say(`ack ${id}`);
  }
}

async function batch(): Promise<void> {
  const n = Number(nText);
  const total = Number(totalText);
  // Generous lock and visibility deadlines: the test machine may be heavily loaded.
  const store = await openStore({ dir, config: { pollIntervalMs: 20, lockTimeoutMs: 60_000 }, logger: createStreamLogger('warn') });
  say('ready');
  for (let i = 0; i < n; i += IN_FLIGHT) {
    const group: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(n, i + IN_FLIGHT); j++) {
      group.push(store.write('remember', (w) => insertMemory(w, { content: `w ${prefix} ${j}`, createdAt: now() })));
    }
    await Promise.all(group);
  }
  const deadline = Date.now() + 60_000;
  let seen = 0;
  while (Date.now() < deadline) {
    seen = store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memories WHERE content LIKE 'w %'")?.n ?? 0);
    if (seen >= total) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  say(`saw ${seen} live ${store.read((db) => countMemories(db))}`);
  await store.close();
}

(mode === 'loop' ? loop() : batch()).catch((e: unknown) => {
  writeSync(2, `child failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(3);
});
