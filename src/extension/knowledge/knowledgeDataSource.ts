/**
 * What the Knowledge panel reads and does, independent of where the data lives. The panel
 * controller codes against this; storeKnowledgeSource.ts implements it over the memory store, the
 * unit tests over an in-memory fake.
 */
import type { Disposable } from '../../core/store/storeTypes';
import type { EntityDetail, EntitySummary, FocalResolution, KnowledgeStats, RecallResultView } from '../../../src/shared/knowledgeProtocolTypes';

export interface EntityListQuery {
  /** Free text matched against entity names (case-insensitive substring); '' for all. */
  readonly query: string;
  /** An entity_type, or null for every type. */
  readonly entityType: string | null;
  readonly offset: number;
  readonly limit: number;
}

export interface EntityPage {
  /** Matching entities in the list order: pinned first (newest pin first), then mentions, then name. */
  readonly entities: readonly EntitySummary[];
  /** Number of entities matching the query and type. */
  readonly total: number;
  /** Every entity type present in the store (for the type filter), sorted. */
  readonly types: readonly string[];
}

export interface KnowledgeDataSource {
  listEntities(query: EntityListQuery): Promise<EntityPage>;
  /** null when the entity does not exist (any more). */
  entityDetail(id: string): Promise<EntityDetail | null>;
  stats(): Promise<KnowledgeStats>;
  /** The last focal-entity resolution, or null when none happened yet. */
  focal(): Promise<FocalResolution | null>;
  /** Pins or unpins an entity (idempotent). Rejects with a MemoryError when it does not exist. */
  setPinned(id: string, pinned: boolean): Promise<void>;
  /** Runs recall with explain for the playground; does not record a session. */
  recall(query: string, limit: number): Promise<readonly RecallResultView[]>;
  /** Fires when the underlying data changed (this window, another window or the CLI). */
  onDidChange(listener: () => void): Disposable;
}
