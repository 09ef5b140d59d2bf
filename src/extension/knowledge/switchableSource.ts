/**
 * The data source the panels hold from activation on: it forwards to the real source once one is
 * set (the store opens asynchronously, and may be reopened), and until then answers every call
 * with a clear "store not open" error instead of pretending the store is empty.
 */
import { MemoryError } from '../../core/errors';
import type { Disposable } from '../../core/store/storeTypes';
import type { EntityListQuery, EntityPage, KnowledgeDataSource } from './knowledgeDataSource';
import type { EntityDetail, FocalResolution, KnowledgeStats, RecallResultView } from '../../../src/shared/knowledgeProtocolTypes';

export class SwitchableKnowledgeSource implements KnowledgeDataSource {
  private current: KnowledgeDataSource | undefined;
  private currentSub: Disposable | undefined;
  private opener: (() => Promise<KnowledgeDataSource>) | undefined;
  private opening: Promise<KnowledgeDataSource> | undefined;
  private readonly listeners = new Set<() => void>();

  set(source: KnowledgeDataSource): void {
    this.currentSub?.dispose();
    this.current = source;
    this.currentSub = source.onDidChange(() => this.fire());
    this.fire();
  }

  /**
   * How to get a source on first use when none is set yet (e.g. open the store lazily:
   * `async () => new StoreKnowledgeSource({ store: (await services.runtime()).store, ... })`).
   */
  setOpener(open: (() => Promise<KnowledgeDataSource>) | undefined): void {
    this.opener = open;
  }

  /**
   * Like setOpener, for when opening happens elsewhere and ends in `set` (e.g. the runtime's open
   * event): `open` only has to make that happen; the source it set is then used.
   */
  setOpenerBySideEffect(open: () => Promise<unknown>): void {
    this.setOpener(async () => {
      await open();
      if (!this.current) throw new MemoryError('E_STORE_IO', 'The memory store opened but the Knowledge panel was not connected to it; see "Memory: Show Logs".');
      return this.current;
    });
  }

  /** Detaches `source` if it is still the current one. */
  clear(source: KnowledgeDataSource): void {
    if (this.current !== source) return;
    this.currentSub?.dispose();
    this.current = undefined;
    this.currentSub = undefined;
    this.fire();
  }

  async listEntities(query: EntityListQuery): Promise<EntityPage> { return (await this.use()).listEntities(query); }
  async entityDetail(id: string): Promise<EntityDetail | null> { return (await this.use()).entityDetail(id); }
  async stats(): Promise<KnowledgeStats> { return (await this.use()).stats(); }
  async focal(): Promise<FocalResolution | null> { return (await this.use()).focal(); }
  async setPinned(id: string, pinned: boolean): Promise<void> { return (await this.use()).setPinned(id, pinned); }
  async recall(query: string, limit: number): Promise<readonly RecallResultView[]> { return (await this.use()).recall(query, limit); }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  private async use(): Promise<KnowledgeDataSource> {
    if (this.current) return this.current;
    if (this.opener) {
      this.opening ??= this.opener().finally(() => { this.opening = undefined; });
      const source = await this.opening;
      if (!this.current) this.set(source);
      return this.current ?? source;
    }
    throw new MemoryError('E_STORE_IO', 'The memory store is not open yet. The panel fills in as soon as it is; see "Memory: Show Logs" if it stays empty.');
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }
}
