/**
 * The data source the panels hold from activation on: it forwards to the real source once one is
 * set (the store opens asynchronously, and may be reopened), and until then answers every call
 * with a clear "store not open" error instead of pretending the store is empty.
 */
import { MemoryError } from '../../core/errors';
import type { Disposable } from '../../core/store/storeTypes';
import type { EntityListQuery, EntityPage, KnowledgeDataSource } from './knowledgeDataSource';
import type { EntityDetail, FocalResolution, KnowledgeStats, RecallResultView } from '../../../webview/protocolTypes';

export class SwitchableKnowledgeSource implements KnowledgeDataSource {
  private current: KnowledgeDataSource | undefined;
  private currentSub: Disposable | undefined;
  private readonly listeners = new Set<() => void>();

  set(source: KnowledgeDataSource): void {
    this.currentSub?.dispose();
    this.current = source;
    this.currentSub = source.onDidChange(() => this.fire());
    this.fire();
  }

  /** Detaches `source` if it is still the current one. */
  clear(source: KnowledgeDataSource): void {
    if (this.current !== source) return;
    this.currentSub?.dispose();
    this.current = undefined;
    this.currentSub = undefined;
    this.fire();
  }

  async listEntities(query: EntityListQuery): Promise<EntityPage> { return this.use().listEntities(query); }
  async entityDetail(id: string): Promise<EntityDetail | null> { return this.use().entityDetail(id); }
  async stats(): Promise<KnowledgeStats> { return this.use().stats(); }
  async focal(): Promise<FocalResolution | null> { return this.use().focal(); }
  async setPinned(id: string, pinned: boolean): Promise<void> { return this.use().setPinned(id, pinned); }
  async recall(query: string, limit: number): Promise<readonly RecallResultView[]> { return this.use().recall(query, limit); }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  private use(): KnowledgeDataSource {
    if (!this.current) throw new MemoryError('E_STORE_IO', 'The memory store is not open yet. The panel fills in as soon as it is; see "Memory: Show Logs" if it stays empty.');
    return this.current;
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }
}
