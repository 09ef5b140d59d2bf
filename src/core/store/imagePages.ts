/**
 * Reads a SQLite database image's b-tree pages (file format: https://www.sqlite.org/fileformat2.html)
 * to tell how many pages each table and index holds and how much of them is unused. The bundled
 * engine has no `dbstat` table, and `PRAGMA freelist_count` sees only whole free pages, not the
 * half-empty ones page splits leave (an index filled in key order, such as `created_at`, ends up
 * about half full: docs/store.md, "Snapshots and compaction"). Pure and read-only.
 */

export interface TreePages {
  /** Interior, leaf and overflow pages of the tree. */
  readonly pages: number;
  /** Bytes of its b-tree pages holding no cell (unallocated, free blocks, fragments). */
  readonly unusedBytes: number;
}

export interface ImageGeometry {
  readonly pageSize: number;
  /** Usable bytes per page (page size minus the reserved bytes at the end of each page). */
  readonly usable: number;
  readonly pageCount: number;
  readonly freePages: number;
}

export function imageGeometry(image: Uint8Array): ImageGeometry {
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  return { pageSize, usable: pageSize - (image[20] as number), pageCount: view.getUint32(28), freePages: view.getUint32(36) };
}

/** Reads a varint at `at`: [value, length]. Payload sizes fit a double exactly. */
function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = b[at + i] as number;
    v = v * 128 + (byte & 0x7f);
    if (byte < 0x80) return [v, i + 1];
  }
  return [v * 256 + (b[at + 8] as number), 9];
}

/** Walks the b-tree rooted at page `root` (1-based): its pages, overflow chains included, and their unused bytes. */
export function treePages(image: Uint8Array, root: number, g: ImageGeometry = imageGeometry(image)): TreePages {
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const { pageSize, usable } = g;
  const maxLocalTable = usable - 35;
  const maxLocalIndex = Math.floor(((usable - 12) * 64) / 255) - 23;
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  const limit = Math.floor(image.length / pageSize);
  const overflowChain = (first: number): number => {
    let n = 0;
    for (let p = first; p > 0 && p <= limit && n < limit; p = view.getUint32((p - 1) * pageSize)) n++;
    return n;
  };
  let pages = 0;
  let unusedBytes = 0;
  const stack = [root];
  while (stack.length > 0 && pages <= limit) {
    const page = stack.pop() as number;
    if (page < 1 || page > limit) continue;
    pages++;
    const base = (page - 1) * pageSize;
    const hdr = base + (page === 1 ? 100 : 0);
    const type = image[hdr] as number;
    const cells = view.getUint16(hdr + 3);
    const interior = type === 2 || type === 5;
    const pointers = hdr + (interior ? 12 : 8);
    const contentStart = view.getUint16(hdr + 5) || 65536;
    let unused = contentStart - (pointers - base + 2 * cells) + (image[hdr + 7] as number);
    for (let fb = view.getUint16(hdr + 1), n = 0; fb !== 0 && n < pageSize; fb = view.getUint16(base + fb), n++) unused += view.getUint16(base + fb + 2);
    unusedBytes += unused + (pageSize - usable);
    if (interior) stack.push(view.getUint32(hdr + 8));
    for (let c = 0; c < cells; c++) {
      let at = base + view.getUint16(pointers + 2 * c);
      if (type === 5) { stack.push(view.getUint32(at)); continue; }
      if (interior) { stack.push(view.getUint32(at)); at += 4; }
      const [size, n1] = varint(image, at);
      at += n1;
      if (type === 13) at += varint(image, at)[1];
      const maxLocal = type === 13 ? maxLocalTable : maxLocalIndex;
      if (size <= maxLocal) continue;
      const k = minLocal + ((size - minLocal) % (usable - 4));
      pages += overflowChain(view.getUint32(at + (k <= maxLocal ? k : minLocal)));
    }
  }
  return { pages, unusedBytes };
}

/**
 * Share of the image a VACUUM could give back: free pages, plus per b-tree (roots: every `rootpage`
 * of sqlite_schema; page 1, the schema itself, is added here) the whole pages its unused bytes add
 * up to. A tree always keeps one page, so the near-empty root pages of small tables count nothing.
 */
export function reclaimableShare(image: Uint8Array, roots: readonly number[]): number {
  const g = imageGeometry(image);
  if (g.pageCount === 0) return 0;
  let pages = g.freePages;
  for (const root of new Set([1, ...roots])) {
    const t = treePages(image, root, g);
    pages += Math.max(0, Math.min(t.pages - 1, Math.floor(t.unusedBytes / g.pageSize)));
  }
  return pages / g.pageCount;
}
