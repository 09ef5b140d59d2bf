/**
 * Where a store's snapshot bytes go (docs/store.md, "Measured: size, open and ingest at
 * 1k/10k/100k"): the pages of every table and index in `snapshot.amsnap`, grouped by table (a
 * table with its indexes; an FTS5 table with its shadow tables), in bytes per memory.
 *
 *   npx tsx bench/storeBreakdown.ts --store DIR [--label NAME] [--indexes]
 *
 * The bundled SQLite (fts5-sql-bundle) is built without the `dbstat` table, so this walks the
 * image's b-trees itself (src/core/store/imagePages.ts: from each root page in sqlite_schema through
 * interior pages to leaves, plus overflow chains, which is what dbstat counts), and reports the
 * share of the image a VACUUM could give back (free pages and the empty part of half-full pages,
 * in whole pages per tree) that decides whether `maintain compact-store` vacuums. The store is only read (the snapshot file, never opened as a
 * store). Writes bench/results/storeBreakdown.json (one entry per --label).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { initSqlJs } from 'fts5-sql-bundle';
import { imageGeometry, reclaimableShare, treePages } from '../src/core/store/imagePages';
import { SNAPSHOT_HEADER_BYTES } from '../src/core/store/snapshotFile';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

interface SchemaRow { type: string; name: string; tbl_name: string; rootpage: number; sql: string | null }

/** The table an object's pages are billed to: its table, or the FTS5 table of a shadow table. */
function owner(row: SchemaRow, fts: readonly string[]): string {
  const shadow = fts.find((f) => row.type === 'table' && row.name.startsWith(`${f}_`) && /_(data|idx|docsize|content|config)$/.test(row.name));
  return shadow ?? row.tbl_name;
}

async function main(): Promise<void> {
  const dir = arg('store');
  if (!dir) throw new Error('usage: npx tsx bench/storeBreakdown.ts --store DIR [--label NAME] [--indexes]');
  const file = readFileSync(join(dir, 'snapshot.amsnap'));
  const image = new Uint8Array(file.buffer, file.byteOffset + SNAPSHOT_HEADER_BYTES, file.length - SNAPSHOT_HEADER_BYTES);
  const g = imageGeometry(image);
  const { pageSize, pageCount: totalPages, freePages } = g;
  const sql = await initSqlJs();
  const db = new sql.Database(image);
  const rows = (db.exec("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE rootpage > 0")[0]?.values ?? [])
    .map(([type, name, tblName, rootpage, text]) => ({ type: String(type), name: String(name), tbl_name: String(tblName), rootpage: Number(rootpage), sql: text === null ? null : String(text) }));
  const fts = (db.exec("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'")[0]?.values ?? []).map(([n]) => String(n));
  const memories = Number(db.exec('SELECT COUNT(*) FROM memories')[0]?.values[0]?.[0] ?? 0);
  db.close();
  const perObject = rows.map((r) => ({ ...r, owner: owner(r, fts), pages: treePages(image, r.rootpage, g).pages }));
  const schemaPages = treePages(image, 1, g).pages;
  const unused = reclaimableShare(image, rows.map((r) => r.rootpage));
  const counted = perObject.reduce((s, o) => s + o.pages, 0) + schemaPages + freePages;
  const byTable = new Map<string, { pages: number; indexes: Record<string, number> }>();
  for (const o of perObject) {
    const t = byTable.get(o.owner) ?? { pages: 0, indexes: {} };
    t.pages += o.pages;
    if (o.name !== o.owner) t.indexes[o.name] = o.pages;
    byTable.set(o.owner, t);
  }
  const perMemory = (pages: number): number => Math.round((pages * pageSize) / Math.max(1, memories));
  const tables = [...byTable.entries()].sort((a, b) => b[1].pages - a[1].pages).map(([name, t]) => ({
    table: name, bytes: t.pages * pageSize, bytesPerMemory: perMemory(t.pages),
    indexes: Object.fromEntries(Object.entries(t.indexes).sort((a, b) => b[1] - a[1]).map(([i, p]) => [i, perMemory(p)])),
  }));
  const out = {
    date: new Date().toISOString(), store: dir, memories, snapshotBytes: file.length, bytesPerMemory: Math.round(file.length / Math.max(1, memories)),
    pageSize, totalPages, freePages, freeBytesPerMemory: perMemory(freePages), reclaimableShare: Math.round(unused * 1000) / 1000, schemaPages, unaccountedPages: totalPages - counted,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100), tables,
  };
  console.log(`${memories} memories, snapshot ${file.length} B = ${out.bytesPerMemory} B/memory (page ${pageSize} B, ${totalPages} pages, ${freePages} free, ${out.unaccountedPages} unaccounted; ${(unused * 100).toFixed(1)} % reclaimable)`);
  for (const t of tables) {
    if (t.bytes === 0) continue;
    console.log(`  ${t.table.padEnd(28)} ${String(t.bytesPerMemory).padStart(6)} B/memory`);
    if (process.argv.includes('--indexes')) for (const [i, b] of Object.entries(t.indexes)) console.log(`      ${i.padEnd(32)} ${String(b).padStart(6)}`);
  }
  const results = join(__dirname, 'results', 'storeBreakdown.json');
  const all = existsSync(results) ? (JSON.parse(readFileSync(results, 'utf8')) as Record<string, unknown>) : {};
  all[arg('label') ?? String(memories)] = out;
  writeFileSync(results, JSON.stringify(all, null, 2) + '\n');
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
