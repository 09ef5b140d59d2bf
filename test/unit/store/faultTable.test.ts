import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { getMemory, insertMemory } from '../../../src/core/memory/memoryRecords';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import { openStore } from '../../../src/core/store/openStore';
import { checkStoreFiles } from '../../../src/core/store/storeFileCheck';
import { nodeStoreFs } from '../../../src/core/store/storeFs';
import { makeTempDir } from '../helpers/tempDir';

/**
 * The fault table of docs/store.md, run case by case: every row damages one file of a store that
 * has a previous snapshot, a newest snapshot and journal records after it, then checks what
 * `store check` says, what opening recovers and reports, and that the store then takes a write
 * that survives a reopen. Each row's expectations are the table's columns.
 */
const AT = '2026-03-01T12:00:00.000Z';
const JOURNAL = 'journal.00000001';
const SNAP = 'snapshot.amsnap';
const PREV = 'snapshot.prev.amsnap';
const TIP = 'journal.tip';
const LOCK = 'write.lock';
/** Memories written after the newest snapshot (only the journal holds them). */
const AFTER_SNAPSHOT = 10;

type Damage = (dir: string, file: string, ctx: Template) => void;

interface Template {
  readonly dir: string;
  /** Ids of every acknowledged memory, in write order. */
  readonly ids: readonly string[];
  /** Copies of files as they were earlier (for "replaced by an older copy"). */
  readonly older: Readonly<Record<string, Buffer>>;
  /** Byte offset the newest snapshot covers in the journal. */
  readonly snapshotOffset: number;
}

interface Row {
  readonly file: string;
  readonly damage: string;
  readonly apply: Damage;
  /** `store check` before opening finds damage. */
  readonly checkFinds: boolean;
  /** Opening reports a recovery (store.recovery set). */
  readonly reported: boolean;
  /** Acknowledged memories lost: a number, or 'some' (at least one, at most the journal-only ones). */
  readonly lost: number | 'some';
  /** Whether the loss count is exact (the tip was usable). */
  readonly exact?: boolean;
  readonly openedFrom?: 'snapshot' | 'previous snapshot' | 'journal only';
  /** A damaged file is kept aside under a timestamped name. */
  readonly keptAside: boolean;
  /** Damage that opening leaves in place (nothing depends on it) and `store check` still reports. */
  readonly leftover?: boolean;
}

const size = (p: string): number => statSync(p).size;
const del: Damage = (d, f) => rmSync(join(d, f), { force: true, recursive: true });
const truncTo = (n: (len: number, ctx: Template) => number): Damage => (d, f, ctx) => truncateSync(join(d, f), n(size(join(d, f)), ctx));
const zero: Damage = (d, f) => writeFileSync(join(d, f), Buffer.alloc(size(join(d, f))));
const flipAt = (at: (len: number, ctx: Template) => number): Damage => (d, f, ctx) => {
  const p = join(d, f);
  const b = readFileSync(p);
  const i = at(b.length, ctx);
  b[i] = (b[i] as number) ^ 0x5a;
  writeFileSync(p, b);
};
const zeroRange = (from: (len: number, ctx: Template) => number, n: number): Damage => (d, f, ctx) => {
  const p = join(d, f);
  const b = readFileSync(p);
  b.fill(0, from(b.length, ctx), from(b.length, ctx) + n);
  writeFileSync(p, b);
};
const older: Damage = (d, f, ctx) => writeFileSync(join(d, f), ctx.older[f] as Buffer);
const directory: Damage = (d, f) => { rmSync(join(d, f), { force: true }); mkdirSync(join(d, f)); writeFileSync(join(d, f, 'inside'), 'x'); };

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

/** A lock file whose content is not a lock, old enough to be past the empty-lock grace. */
const garbageLock = (content: (lock: Buffer) => Buffer): Damage => (d) => {
  const lock = Buffer.from(JSON.stringify({ pid: 1, host: hostname(), token: 'abcdef0123456789', at: Date.now() }));
  writeFileSync(join(d, LOCK), content(lock));
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(d, LOCK), past, past);
};

const ROWS: readonly Row[] = [
  // newest snapshot
  { file: SNAP, damage: 'deleted', apply: del, checkFinds: false, reported: false, lost: 0, openedFrom: 'previous snapshot', keptAside: false },
  { file: SNAP, damage: 'truncated inside the header (32 bytes)', apply: truncTo(() => 32), checkFinds: true, reported: true, lost: 0, openedFrom: 'previous snapshot', keptAside: true },
  { file: SNAP, damage: 'truncated to half', apply: truncTo((n) => Math.floor(n / 2)), checkFinds: true, reported: true, lost: 0, openedFrom: 'previous snapshot', keptAside: true },
  { file: SNAP, damage: 'last byte cut', apply: truncTo((n) => n - 1), checkFinds: true, reported: true, lost: 0, openedFrom: 'previous snapshot', keptAside: true },
  { file: SNAP, damage: 'zeroed', apply: zero, checkFinds: true, reported: true, lost: 0, openedFrom: 'previous snapshot', keptAside: true },
  { file: SNAP, damage: 'flipped byte in the header', apply: flipAt(() => 20), checkFinds: true, reported: true, lost: 0, openedFrom: 'previous snapshot', keptAside: true },
  { file: SNAP, damage: 'flipped byte in the image', apply: flipAt((n) => Math.floor(n / 2)), checkFinds: true, reported: true, lost: 0, openedFrom: 'previous snapshot', keptAside: true },
  { file: SNAP, damage: 'replaced by an older copy', apply: older, checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: SNAP, damage: 'made a directory', apply: directory, checkFinds: true, reported: true, lost: 0, openedFrom: 'previous snapshot', keptAside: true },
  // previous snapshot (only read when the newest one is unusable; `store check` and `store recover` read it)
  { file: PREV, damage: 'deleted', apply: del, checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: PREV, damage: 'truncated to half', apply: truncTo((n) => Math.floor(n / 2)), checkFinds: true, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false, leftover: true },
  { file: PREV, damage: 'zeroed', apply: zero, checkFinds: true, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false, leftover: true },
  { file: PREV, damage: 'flipped byte in the image', apply: flipAt((n) => Math.floor(n / 2)), checkFinds: true, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false, leftover: true },
  { file: PREV, damage: 'replaced by an older copy', apply: older, checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: PREV, damage: 'made a directory', apply: directory, checkFinds: true, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false, leftover: true },
  { file: `${SNAP} + ${PREV}`, damage: 'both zeroed', apply: (d, _f, c) => { zero(d, SNAP, c); zero(d, PREV, c); }, checkFinds: true, reported: true, lost: 0, openedFrom: 'journal only', keptAside: true },
  // journal
  { file: JOURNAL, damage: 'deleted', apply: del, checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: true, openedFrom: 'snapshot', keptAside: false },
  { file: JOURNAL, damage: 'truncated inside the header (16 bytes)', apply: truncTo(() => 16), checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'truncated to half (before the snapshot position)', apply: truncTo((n) => Math.floor(n / 2)), checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'truncated at the snapshot position', apply: truncTo((_n, c) => c.snapshotOffset), checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: true, openedFrom: 'snapshot', keptAside: false },
  { file: JOURNAL, damage: 'truncated at 90 %', apply: truncTo((n) => Math.floor(n * 0.9)), checkFinds: true, reported: true, lost: 'some', exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'last 100 bytes cut', apply: truncTo((n) => n - 100), checkFinds: true, reported: true, lost: 1, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'zeroed', apply: zero, checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'zero-filled gap after the snapshot position', apply: zeroRange((n, c) => c.snapshotOffset + Math.floor((n - c.snapshotOffset) / 2), 64), checkFinds: true, reported: true, lost: 'some', exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'flipped byte in the header', apply: flipAt(() => 13), checkFinds: true, reported: true, lost: 0, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'flipped byte after the snapshot position', apply: flipAt((n) => n - 30), checkFinds: true, reported: true, lost: 1, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'flipped byte before the snapshot position', apply: flipAt((_n, c) => c.snapshotOffset - 30), checkFinds: true, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false, leftover: true },
  { file: JOURNAL, damage: 'replaced by an older copy', apply: older, checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: JOURNAL, damage: 'made a directory', apply: directory, checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: true, openedFrom: 'snapshot', keptAside: true },
  { file: `${JOURNAL} + ${TIP}`, damage: 'journal truncated to half, tip deleted', apply: (d, _f, c) => { truncTo((n) => Math.floor(n / 2))(d, JOURNAL, c); del(d, TIP, c); }, checkFinds: true, reported: true, lost: AFTER_SNAPSHOT, exact: false, openedFrom: 'snapshot', keptAside: true },
  // journal tip
  { file: TIP, damage: 'deleted', apply: del, checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: TIP, damage: 'truncated to half', apply: truncTo((n) => Math.floor(n / 2)), checkFinds: true, reported: true, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: TIP, damage: 'zeroed', apply: zero, checkFinds: true, reported: true, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: TIP, damage: 'flipped byte', apply: flipAt(() => 17), checkFinds: true, reported: true, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: TIP, damage: 'replaced by an older copy', apply: older, checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: TIP, damage: 'made a directory', apply: directory, checkFinds: true, reported: true, lost: 0, openedFrom: 'snapshot', keptAside: true },
  // write lock (present only while a process writes)
  { file: LOCK, damage: 'left by a killed writer (dead pid)', apply: (d) => writeFileSync(join(d, LOCK), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead', at: Date.now() })), checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: LOCK, damage: 'truncated to half', apply: garbageLock((b) => b.subarray(0, Math.floor(b.length / 2))), checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: LOCK, damage: 'zeroed', apply: garbageLock((b) => Buffer.alloc(b.length)), checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: LOCK, damage: 'flipped byte', apply: garbageLock((b) => { const c = Buffer.from(b); c[0] = 0x5a; return c; }), checkFinds: false, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: false },
  { file: LOCK, damage: 'made a directory', apply: directory, checkFinds: true, reported: false, lost: 0, openedFrom: 'snapshot', keptAside: true },
];

describe('store fault table (docs/store.md)', function () {
  this.timeout(120_000);
  let root: ReturnType<typeof makeTempDir>;
  let template: Template;

  before(async () => {
    root = makeTempDir();
    const dir = join(root.dir, 'template');
    const ids: string[] = [];
    const copies: Record<string, Buffer> = {};
    const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
    const remember = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) ids.push((await store.write('remember', (w) => insertMemory(w, { content: `fault table memory ${ids.length}`, createdAt: AT }))).id);
    };
    await remember(5);
    await store.snapshot();
    copies[PREV] = readFileSync(join(dir, SNAP));
    copies[JOURNAL] = readFileSync(join(dir, JOURNAL));
    copies[TIP] = readFileSync(join(dir, TIP));
    await remember(5);
    await store.snapshot();
    copies[SNAP] = readFileSync(join(dir, SNAP));
    await remember(10);
    await store.snapshot();
    const snapshotOffset = size(join(dir, JOURNAL));
    await remember(AFTER_SNAPSHOT);
    await store.close();
    template = { dir, ids, older: copies, snapshotOffset };
  });
  after(() => root.cleanup());

  let n = 0;
  for (const row of ROWS) {
    it(`${row.file}, ${row.damage}`, async () => {
      const dir = join(root.dir, `case-${n++}`);
      cpSync(template.dir, dir, { recursive: true });
      row.apply(dir, row.file, template);
      assert.equal(checkStoreFiles(nodeStoreFs, dir).ok, !row.checkFinds, 'store check');
      let store: DurableMemoryStore | undefined = await openStore({ dir, config: { snapshotOnClose: 'never', emptyLockGraceMs: 10 } });
      try {
        const missing = store.read((db) => template.ids.filter((id) => !getMemory(db, id)));
        const rec = store.recovery;
        assert.equal(rec !== undefined, row.reported, `reported: ${rec?.message ?? 'nothing'}`);
        if (row.lost === 'some') assert.ok(missing.length >= 1 && missing.length <= AFTER_SNAPSHOT, `lost ${missing.length}`);
        else assert.equal(missing.length, row.lost, 'memories lost');
        // Memories lost are always the newest ones (replay stops at the first gap).
        assert.deepEqual(missing, template.ids.slice(template.ids.length - missing.length));
        if (rec) {
          if (row.exact !== false) assert.equal(rec.lostRecords, missing.length, `the report counts exactly what was lost: ${rec.message}`);
          if (row.exact !== undefined) assert.equal(rec.lossExact, row.exact);
          if (row.openedFrom) assert.equal(rec.openedFrom, row.openedFrom);
          if (missing.length) assert.match(rec.message, /acknowledged transaction\(s\) were lost|is unknown/);
          assert.match(rec.message, /agent-memory store check/);
        }
        // Writable again, and what it acknowledges survives a clean reopen.
        const extra = (await store.write('remember', (w) => insertMemory(w, { content: `after ${row.damage}`, createdAt: AT }))).id;
        await store.close();
        const aside = readdirSync(dir).filter((f) => /\.damaged-\d{4}-/.test(f));
        assert.equal(aside.length > 0, row.keptAside, `kept aside: ${aside.join(', ')}`);
        store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
        assert.equal(store.recovery, undefined, `second open is clean: ${store.recovery?.message ?? ''}`);
        assert.ok(store.read((db) => getMemory(db, extra)), 'the write after the repair survived');
        assert.equal(store.read((db) => template.ids.filter((id) => !getMemory(db, id)).length), missing.length);
      } finally {
        await store?.close();
      }
      const after = checkStoreFiles(nodeStoreFs, dir);
      assert.equal(after.ok, row.leftover !== true, `store check after the repair: ${after.findings.map((f) => f.message).join(' | ')}`);
      rmSync(dir, { recursive: true, force: true });
    });
  }
});
