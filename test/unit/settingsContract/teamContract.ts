/**
 * Team settings that change recall (docs/team.md "Partial replicas"): `team.replica` decides
 * whether recall asks the team server, `team.serverRecallTimeoutMs` how long it waits. Against a
 * PGlite team server (helpers/teamRecallFixture.ts); the pull side of `team.replica` and the real
 * server are in test/unit/team/teamPartial.test.ts.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { engineOnStore } from '../helpers/testEngine';
import { linkStore, startPgliteTeam } from '../helpers/teamRecallFixture';
import type { PgliteTeam } from '../helpers/teamRecallFixture';
import { settingContract } from './contractRegistry';

describe('settings contract: team memory', function () {
  this.timeout(60_000);
  let team: PgliteTeam;
  const clock = new ManualClock(Date.UTC(2026, 10, 2));
  before(async () => {
    team = await startPgliteTeam(['alice', 'bob']);
    await team.insertAs('alice', { id: 'alice-rota', project: 'web', content: 'The on-call rota rotates every Monday at noon.' });
  });
  after(async () => { await team?.close(); });

  async function recallWith(values: Record<string, unknown>, delayMs = 0): Promise<{ ids: string[]; notes: string[]; opened: number }> {
    const store = await openMemoryStore({ clock });
    try {
      await linkStore(store, 'bob', ['web'], { caughtUp: true });
      const open = team.opener({ delayMs });
      const engine = engineOnStore(store, clock, values, { teamServer: open });
      try {
        const out = await engine.recallDetailed({ query: 'on-call rota monday' }, { track: false });
        return { ids: out.items.map((r) => r.id), notes: out.notes, opened: open.opened };
      } finally {
        await engine.close();
      }
    } finally {
      await store.close();
    }
  }

  settingContract('team.replica', "'partial' makes recall ask the team server for memories the store does not hold; a caught-up 'full' replica never asks", async () => {
    const full = await recallWith({});
    assert.deepEqual(full, { ids: [], notes: full.notes, opened: 0 });
    const partial = await recallWith({ 'team.replica': 'partial' });
    assert.deepEqual(partial.ids, ['alice-rota']);
    assert.equal(partial.opened, 1);
  });

  settingContract('team.serverRecallTimeoutMs', 'is how long recall waits for the team server before answering locally', async () => {
    // Each server statement takes 150 ms (a search is several): 100 ms is too short, 20 s is not.
    const short = await recallWith({ 'team.replica': 'partial', 'team.serverRecallTimeoutMs': 100 }, 150);
    assert.deepEqual(short.ids, []);
    assert.ok(short.notes.some((n) => /did not answer within 100 ms/.test(n)), short.notes.join(' | '));
    const long = await recallWith({ 'team.replica': 'partial', 'team.serverRecallTimeoutMs': 20_000 }, 150);
    assert.deepEqual(long.ids, ['alice-rota']);
  });
});
