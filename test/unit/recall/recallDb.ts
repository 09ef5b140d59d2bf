import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';

/** Direct inserts for recall tests (full control of ids, types and times). */
export interface MemorySeed { id: string; content: string; type?: string; createdAt?: string; project?: string; sourceId?: string; importance?: number }

export function insertMemory(w: SqlWriter, m: MemorySeed): void {
  const t = m.createdAt ?? '2026-01-01T00:00:00.000Z';
  w.run('INSERT INTO memories (id, content, type, project, source_id, importance, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [m.id, m.content, m.type ?? 'fact', m.project ?? null, m.sourceId ?? null, m.importance ?? 0.5, t, t]);
}

export function insertVector(w: SqlWriter, memoryId: string, vector: Float32Array, model: string): void {
  w.run('INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [`h-${memoryId}`, model, new Uint8Array(vector.buffer.slice(0)), vector.length, 'memory', memoryId, '2026-01-01T00:00:00.000Z']);
}

export function insertEntity(w: SqlWriter, id: string, name: string, opts: { type?: string; mentions?: number; pinned?: boolean } = {}): void {
  w.run('INSERT INTO entities (id, name, canonical_name, entity_type, mentions, pinned, pinned_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [id, name, name.toLowerCase(), opts.type ?? 'concept', opts.mentions ?? 1, opts.pinned ? 1 : 0, opts.pinned ? '2026-01-02T00:00:00.000Z' : null, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
}

export function link(w: SqlWriter, memoryId: string, entityId: string): void {
  w.run('INSERT INTO memory_entity_mentions (memory_id, entity_id) VALUES (?, ?)', [memoryId, entityId]);
}

export function relate(w: SqlWriter, from: string, to: string, confidence = 0.9): void {
  w.run('INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, confidence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [`r-${from}-${to}`, from, to, 'uses', confidence, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
}

export async function seed(store: MemoryStore, fn: (w: SqlWriter) => void): Promise<void> {
  await store.write('test-seed', fn);
}
