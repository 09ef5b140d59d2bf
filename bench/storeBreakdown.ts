/**
 * Where a store's snapshot bytes go (docs/store.md, "Measured: size, open and ingest at
 * 1k/10k/100k"): the pages of every table and index in `snapshot.amsnap`, grouped by table (a
 * table with its indexes; an FTS5 table with its shadow tables), in bytes per memory.
 *
 *   npx tsx bench/storeBreakdown.ts --store DIR [--label NAME] [--indexes]
 *
 * The bundled SQLite (fts5-sql-bundle) is built without the `dbstat` table, so this walks the
 * image's b-trees itself (SQLite file format, https://www.sqlite.org/fileformat2.html): from each
 * root page in sqlite_schema through interior pages to leaves, plus the overflow chains of cells
 * whose payload does not fit the page, which is what dbstat counts. Pages on the freelist and the
 * pointer-map pages are reported apart. The store is only read (the snapshot file, never opened as
 * a store). Writes bench/results/storeBreakdown.json (one entry per --label).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { initSqlJs } from 'fts5-sql-bundle';
import { SNAPSHOT_HEADER_BYTES } from '../src/core/store/snapshotFile';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** Reads a SQLite varint at `at`: its value (as a number: payload sizes and rowids here fit) and length. */
function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = b[at + i] as number;
    v = v * 128 + (byte & 0x7f);
    if (byte < 0x80) return [v, i + 1];
  }
  return [v * 256 + (b[at + 8] as number), 9];
}

/** Counts the pages of the b-tree rooted at `root` (interior, leaf and overflow pages). */
export function btreePages(image: Uint8Array, pageSize: number, usable: number, root: number): number {
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const maxLocalTable = usable - 35;
  const maxLocalIndex = Math.floor(((usable - 12) * 64) / 255) - 23;
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  const overflowPages = (first: number): number => {
    let n = 0;
    for (let p = first; p !== 0 && n < image.length / pageSize; p = view.getUint32((p - 1) * pageSize)) n++;
    return n;
  };
  /** Overflow pages of a cell whose payload of `size` bytes starts at `at`, or 0. */
  const overflowOf = (at: number, size: number, maxLocal: number): number => {
    if (size <= maxLocal) return 0;
    const k = minLocal + ((size - minLocal) % (usable - 4));
    const local = k <= maxLocal ? k : minLocal;
    return overflowPages(view.getUint32(at + local));
  };
  let pages = 0;
  const stack = [root];
  while (stack.length > 0) {
    const page = stack.pop() as number;
    pages++;
    const base = (page - 1) * pageSize;
    const hdr = base + (page === 1 ? 100 : 0);
    const type = image[hdr] as number;
    const cells = view.getUint16(hdr + 3);
    const interior = type === 2 || type === 5;
    const pointers = hdr + (interior ? 12 : 8);
    if (interior) stack.push(view.getUint32(hdr + 8));
    for (let c = 0; c < cells; c++) {
      const cell = base + view.getUint16(pointers + 2 * c);
      if (type === 5) { stack.push(view.getUint32(cell)); continue; }
      let at = cell;
      if (interior) { stack.push(view.getUint32(at)); at += 4; }
      const [size, n1] = varint(image, at);
      at += n1;
      if (type === 13) at += varint(image, at)[1];
      pages += overflowOf(at, size, type === 13 ? maxLocalTable : maxLocalIndex);
    }
  }
  return pages;
}

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
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const usable = pageSize - (image[20] as number);
  const totalPages = view.getUint32(28);
  const freePages = view.getUint32(36);
  const sql = await initSqlJs();
  const db = new sql.Database(image);
  const rows = (db.exec("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE rootpage > 0")[0]?.values ?? [])
    .map(([type, name, tblName, rootpage, text]) => ({ type: String(type), name: String(name), tbl_name: String(tblName), rootpage: Number(rootpage), sql: text === null ? null : String(text) }));
  const fts = (db.exec("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'")[0]?.values ?? []).map(([n]) => String(n));
  const memories = Number(db.exec('SELECT COUNT(*) FROM memories')[0]?.values[0]?.[0] ?? 0);
  db.close();
  const perObject = rows.map((r) => ({ ...r, owner: owner(r, fts), pages: btreePages(image, pageSize, usable, r.rootpage) }));
  const schemaPages = btreePages(image, pageSize, usable, 1);
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
    pageSize, totalPages, freePages, freeBytesPerMemory: perMemory(freePages), schemaPages, unaccountedPages: totalPages - counted,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100), tables,
  };
  console.log(`${memories} memories, snapshot ${file.length} B = ${out.bytesPerMemory} B/memory (page ${pageSize} B, ${totalPages} pages, ${freePages} free, ${out.unaccountedPages} unaccounted)`);
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
