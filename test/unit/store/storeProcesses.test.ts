import { strict as assert } from 'node:assert';
import { countMemories, getMemory } from '../../../src/core/memory/memoryRecords';
import { openStore } from '../../../src/core/store/openStore';
import { spawnChild, waitFor } from '../helpers/childProcess';
import { makeTempDir } from '../helpers/tempDir';

const CHILD = 'test/unit/helpers/storeChild.ts';
const CRASH_ROUNDS = 20;

/** A small deterministic PRNG so kill moments vary but runs are reproducible. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

describe('store across real processes', function () {
  this.timeout(120_000);
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(() => temp.cleanup());

  it(`keeps every acknowledged write through ${CRASH_ROUNDS} SIGKILLs at random moments`, async () => {
    const random = lcg(20261129);
    const acked: string[] = [];
    for (let round = 0; round < CRASH_ROUNDS; round++) {
      const run = spawnChild(CHILD, ['loop', temp.dir, `r${round}`]);
      if (round % 5 === 4) {
        // Some kills land while the store is opening, recovering or migrating.
        await new Promise((r) => setTimeout(r, Math.floor(random() * 300)));
      } else {
        await waitFor(run.lines, (l) => l.some((x) => x.startsWith('ack ')), 20_000);
        await new Promise((r) => setTimeout(r, Math.floor(random() * 200)));
      }
      run.child.kill('SIGKILL');
      await run.exited;
      const ids = run.lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4));
      assert.ok(!run.stderr().includes('child failed'), `round ${round}: ${run.stderr()}`);
      acked.push(...ids);
      // The store opens after every kill and holds everything acknowledged so far.
      const store = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
      const missing = store.read((db) => acked.filter((id) => getMemory(db, id) === undefined));
      await store.close();
      assert.deepEqual(missing, [], `round ${round}: acknowledged ids missing after reopen`);
    }
    assert.ok(acked.length > CRASH_ROUNDS, `only ${acked.length} writes acknowledged`);
  });

  for (const processes of [2, 4]) {
    it(`${processes} processes writing 500 memories each at once lose nothing and see each other`, async () => {
      const perProcess = 500;
      const total = processes * perProcess;
      const runs = Array.from({ length: processes }, (_, i) => spawnChild(CHILD, ['batch', temp.dir, `p${i}`, String(perProcess), String(total)]));
      const codes = await Promise.all(runs.map((r) => r.exited));
      for (const [i, r] of runs.entries()) {
        assert.equal(codes[i], 0, `child ${i} failed: ${r.stderr()}`);
        // Each child read the others' memories before it exited.
        assert.ok(r.lines.some((l) => l.startsWith(`saw ${total} `)), `child ${i} saw: ${r.lines.join(' | ')}`);
      }
      const store = await openStore({ dir: temp.dir });
      try {
        assert.equal(store.read((db) => countMemories(db)), total);
        for (let i = 0; i < processes; i++) {
          const n = store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE content LIKE ?', [`w p${i} %`])?.n);
          assert.equal(n, perProcess, `process ${i}`);
        }
      } finally {
        await store.close();
      }
    });
  }
});
