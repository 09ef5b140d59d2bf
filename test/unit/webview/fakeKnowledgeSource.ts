/** An in-memory KnowledgeDataSource for the controller tests: entities in a list, ordered like the store. */
import type { EntityListQuery, EntityPage, KnowledgeDataSource } from '../../../src/extension/knowledge/knowledgeDataSource';
import type { Disposable } from '../../../src/core/store/storeTypes';
import { MemoryError } from '../../../src/core/errors';
import type { EntityDetail, EntitySummary, FocalResolution, KnowledgeStats, RecallResultView } from '../../../src/shared/knowledgeProtocolTypes';
import { detail, stats } from './fixtures';

export class FakeKnowledgeSource implements KnowledgeDataSource {
  entities: EntitySummary[];
  listCalls: EntityListQuery[] = [];
  failNext: Error | undefined;
  recallResults: RecallResultView[] = [];
  private listeners = new Set<() => void>();

  constructor(entities: EntitySummary[]) {
    this.entities = entities;
  }

  private ordered(): EntitySummary[] {
    return [...this.entities].sort((a, b) => Number(b.pinned) - Number(a.pinned) || (b.pinnedAt ?? '').localeCompare(a.pinnedAt ?? '') || b.mentions - a.mentions || a.name.localeCompare(b.name));
  }

  private maybeFail(): void {
    const e = this.failNext;
    this.failNext = undefined;
    if (e) throw e;
  }

  async listEntities(q: EntityListQuery): Promise<EntityPage> {
    this.maybeFail();
    this.listCalls.push(q);
    const all = this.ordered().filter((e) => (!q.entityType || e.type === q.entityType) && e.name.toLowerCase().includes(q.query.toLowerCase()));
    return { entities: all.slice(q.offset, q.offset + q.limit), total: all.length, types: [...new Set(this.entities.map((e) => e.type))].sort() };
  }

  async entityDetail(id: string): Promise<EntityDetail | null> {
    this.maybeFail();
    const e = this.entities.find((x) => x.id === id);
    return e ? { ...detail(0), summary: e } : null;
  }

  async stats(): Promise<KnowledgeStats> { this.maybeFail(); return stats(); }
  async focal(): Promise<FocalResolution | null> { this.maybeFail(); return null; }

  async setPinned(id: string, pinned: boolean): Promise<void> {
    this.maybeFail();
    const i = this.entities.findIndex((x) => x.id === id);
    if (i < 0) throw new MemoryError('E_NOT_FOUND', `No entity ${id}.`);
    this.entities[i] = { ...this.entities[i]!, pinned, pinnedAt: pinned ? '2026-11-29T12:00:00.000Z' : null };
    this.fire();
  }

  async recall(): Promise<readonly RecallResultView[]> { this.maybeFail(); return this.recallResults; }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  fire(): void { for (const l of this.listeners) l(); }
}
