import { ManualClock, isoFromMs } from '../../../src/core/clock';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';

/** A scratch store with the full schema (every migration applied, as every store is). */
export async function openTestStore(clock = new ManualClock(Date.UTC(2026, 2, 1))): Promise<{ store: MemoryStore; clock: ManualClock }> {
  const store = await openMemoryStore({ clock });
  return { store, clock };
}

let seq = 0;
export function nextId(prefix: string): string {
  seq++;
  return `${prefix}${String(seq).padStart(8, '0')}-0000-4000-8000-000000000000`;
}

export function addMemory(db: SqlWriter, nowMs: number, over: { id?: string; content?: string; importance?: number; agentId?: string; project?: string | null; createdAt?: string; accessCount?: number } = {}): string {
  const id = over.id ?? nextId('m');
  const t = over.createdAt ?? isoFromMs(nowMs);
  db.run('INSERT INTO memories (id, content, importance, agent_id, project, created_at, updated_at, access_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [id, over.content ?? `memory ${id}`, over.importance ?? 0.5, over.agentId ?? 'default', over.project ?? null, t, t, over.accessCount ?? 0]);
  return id;
}

export function addEntity(db: SqlWriter, nowMs: number, name: string, over: { agentId?: string; type?: string; mentions?: number; scope?: string | null } = {}): string {
  const id = nextId('e');
  const t = isoFromMs(nowMs);
  db.run('INSERT INTO entities (id, name, canonical_name, entity_type, mentions, agent_id, scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [id, name, name.trim().toLowerCase().replace(/\s+/g, ' '), over.type ?? 'concept', over.mentions ?? 1, over.agentId ?? 'default', over.scope ?? null, t, t]);
  return id;
}

export function addAspect(db: SqlWriter, nowMs: number, entityId: string, name: string, weight = 0.5, over: { agentId?: string; updatedAt?: string } = {}): string {
  const id = nextId('a');
  const t = isoFromMs(nowMs);
  db.run('INSERT INTO entity_aspects (id, entity_id, agent_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [id, entityId, over.agentId ?? 'default', name, name.toLowerCase(), weight, t, over.updatedAt ?? t]);
  return id;
}

export function addAttribute(db: SqlWriter, nowMs: number, entityId: string, aspectId: string | null, memoryId: string | null, over: { agentId?: string; status?: string; kind?: string; importance?: number } = {}): string {
  const id = nextId('t');
  const t = isoFromMs(nowMs);
  db.run('INSERT INTO entity_attributes (id, entity_id, aspect_id, agent_id, memory_id, kind, content, importance, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [id, entityId, aspectId, over.agentId ?? 'default', memoryId, over.kind ?? 'attribute', `attribute ${id}`, over.importance ?? 0.5, over.status ?? 'active', t, t]);
  return id;
}

export function addSessionMemory(db: SqlWriter, nowMs: number, sessionKey: string, memoryId: string, over: { rank?: number; ftsHits?: number; injected?: boolean; agentId?: string; effective?: number; relevance?: number | null } = {}): void {
  db.run('INSERT INTO session_memories (session_key, agent_id, memory_id, source, effective_score, final_score, rank, was_injected, fts_hit_count, relevance_score, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [sessionKey, over.agentId ?? 'default', memoryId, 'effective', over.effective ?? 0.5, over.effective ?? 0.5, over.rank ?? 0, over.injected === false ? 0 : 1, over.ftsHits ?? 0, over.relevance ?? null, nowMs]);
}
