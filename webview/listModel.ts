/**
 * The webview's copy of the entity list: a sparse array of rows (only the pages it has received),
 * the total, and which pages still need asking for. Pure, so it is unit-tested without a DOM.
 */
import type { EntitySummary } from '../src/shared/knowledgeProtocolTypes';

export class ListModel {
  private rows: (EntitySummary | undefined)[] = [];
  private requested = new Set<number>();
  total = 0;
  types: readonly string[] = [];

  constructor(readonly pageSize: number) {}

  get(index: number): EntitySummary | undefined {
    return this.rows[index];
  }

  indexOf(id: string): number {
    for (let i = 0; i < this.rows.length; i++) if (this.rows[i]?.id === id) return i;
    return -1;
  }

  /** Applies a page. With `reset`, rows outside it are forgotten (they are reloaded lazily). */
  applyPage(offset: number, total: number, entities: readonly EntitySummary[], reset: boolean): void {
    if (reset || total !== this.total) {
      this.rows = [];
      this.requested.clear();
    }
    this.total = total;
    this.rows.length = Math.max(this.rows.length, Math.min(total, offset + entities.length));
    for (let i = 0; i < entities.length; i++) this.rows[offset + i] = entities[i];
    this.requested.delete(this.pageOf(offset));
  }

  /** Applies a delta: changed rows by id, removed ids dropped (later rows move up). */
  applyDelta(total: number, upserts: readonly EntitySummary[], removed: readonly string[]): void {
    if (removed.length) {
      const gone = new Set(removed);
      this.rows = this.rows.filter((r) => r === undefined || !gone.has(r.id));
      this.requested.clear();
    }
    if (upserts.length) {
      const byId = new Map(upserts.map((e) => [e.id, e]));
      for (let i = 0; i < this.rows.length; i++) {
        const row = this.rows[i];
        const next = row && byId.get(row.id);
        if (next) this.rows[i] = next;
      }
    }
    this.total = total;
    if (this.rows.length > total) this.rows.length = total;
  }

  /** Clears everything (a new search). */
  clear(): void {
    this.rows = [];
    this.requested.clear();
    this.total = 0;
  }

  pageOf(index: number): number {
    return Math.floor(index / this.pageSize);
  }

  /** Page offsets covering [from, to) that are neither loaded nor already requested; marks them requested. */
  takeMissingPages(from: number, to: number): number[] {
    const out: number[] = [];
    const end = Math.min(to, this.total);
    for (let page = this.pageOf(Math.max(0, from)); page * this.pageSize < end; page++) {
      if (this.requested.has(page)) continue;
      const start = page * this.pageSize;
      const stop = Math.min(end, start + this.pageSize);
      let missing = false;
      for (let i = Math.max(start, from); i < stop; i++) if (this.rows[i] === undefined) { missing = true; break; }
      if (!missing) continue;
      this.requested.add(page);
      out.push(start);
    }
    return out;
  }
}
