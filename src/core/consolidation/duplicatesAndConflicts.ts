import { decodeVector } from '../models/vectorStore';
import type { ContradictionConfig } from '../config/extractionConfig';
import type { GraphConfig } from '../config/graphConfig';
import { detectContradiction } from '../extraction/contradiction';
import type { ContradictionReason } from '../extraction/contradiction';
import { findMemorySupersessions } from '../extraction/memorySupersession';
import type { MemorySupersessionKind } from '../extraction/memorySupersession';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import type { Embedder } from '../models/embedder';
import type { MemoryStore } from '../store/storeTypes';
import { cosine as cosineSimilarity } from '../models/embedder';
import { findConflictCandidates, kMeans } from './cluster';
import type { Rng } from './cluster';

/**
 * Maintenance task "find duplicates and conflicts". Read-only: it
 * proposes merges and conflicts for the user to accept; nothing is merged silently.
 */
export interface MergeProposal {
  /** The memory to keep (pinned first, then the older one). */
  readonly keepId: string;
  readonly dropId: string;
  readonly type: string;
  readonly similarity: number;
}

export interface ConflictProposal {
  readonly kind: 'memory' | 'attribute';
  /** The older item and the newer one. */
  readonly olderId: string;
  readonly newerId: string;
  readonly similarity: number;
  /** Contradiction verdict, or a memory-level change (newer decision, changed setting value). */
  readonly reason: ContradictionReason | MemorySupersessionKind;
  readonly confidence: number;
  readonly detail: string;
}

export interface DuplicatesAndConflicts {
  readonly scanned: number;
  readonly merges: readonly MergeProposal[];
  readonly conflicts: readonly ConflictProposal[];
  /** Topic clusters of the scanned memories (ids), for review screens. */
  readonly clusters: readonly (readonly string[])[];
}

export interface ScanDeps {
  readonly store: MemoryStore;
  readonly modelId: string;
  readonly dims: number;
  /** Embeds attribute texts for the attribute conflict pass; without it that pass uses token overlap only. */
  readonly embedder?: Embedder;
  readonly llm: LlmClient | undefined;
  readonly graph: GraphConfig;
  readonly contradiction: ContradictionConfig;
  readonly logger: Logger;
  readonly rng: Rng;
  readonly signal?: AbortSignal;
}

interface Item { id: string; type: string; content: string; created_at: string; pinned: number; project: string | null; vector: Float32Array }

/**
 * Confidence reported for a heuristic memory-level change (extraction/memorySupersession.ts): the
 * same as the syntactic antonym path, as both are word-level evidence without a model.
 */
export const MEMORY_CHANGE_CONFIDENCE = 0.8;

/** Cluster count for n items (min(10, max(1, floor(sqrt(n/2))))). */
export const clusterCount = (n: number): number => Math.min(10, Math.max(1, Math.floor(Math.sqrt(n / 2))));

function loadItems(deps: ScanDeps): Item[] {
  const rows = deps.store.read((db) => db.all<{ id: string; type: string; content: string; created_at: string; pinned: number; project: string | null; vector: Uint8Array; dimensions: number }>(
    `SELECT m.id, m.type, m.content, m.created_at, m.pinned, m.project, e.vector, e.dimensions FROM memories m
       JOIN embeddings e ON e.source_id = m.id AND e.source_type = 'memory' AND e.model_id = ?
      WHERE m.is_deleted = 0 ORDER BY m.updated_at DESC, m.rowid DESC LIMIT ?`, [deps.modelId, deps.graph.maintenanceWindow]));
  const items: Item[] = [];
  for (const r of rows) {
    const vector = r.dimensions === deps.dims ? decodeVector(r.vector, deps.dims) : undefined;
    if (vector) items.push({ id: r.id, type: r.type, content: r.content, created_at: r.created_at, pinned: r.pinned, project: r.project, vector });
  }
  return items;
}

function proposeMerges(items: Item[], threshold: number): MergeProposal[] {
  const pairs: { a: Item; b: Item; s: number }[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i] as Item;
      const b = items[j] as Item;
      if (a.type !== b.type) continue;
      const s = cosineSimilarity(a.vector, b.vector);
      if (s > threshold) pairs.push({ a, b, s });
    }
  }
  pairs.sort((x, y) => y.s - x.s);
  const claimed = new Set<string>();
  const out: MergeProposal[] = [];
  for (const { a, b, s } of pairs) {
    if (claimed.has(a.id) || claimed.has(b.id)) continue;
    claimed.add(a.id); claimed.add(b.id);
    const keepA = a.pinned !== b.pinned ? a.pinned > b.pinned : a.created_at <= b.created_at;
    out.push({ keepId: keepA ? a.id : b.id, dropId: keepA ? b.id : a.id, type: a.type, similarity: s });
  }
  return out;
}

async function checkPair(kind: ConflictProposal['kind'], a: { id: string; content: string; created_at: string }, b: { id: string; content: string; created_at: string }, similarity: number, deps: ScanDeps): Promise<ConflictProposal | undefined> {
  const [older, newer] = a.created_at <= b.created_at ? [a, b] : [b, a];
  const v = await detectContradiction(older.content, newer.content, { config: deps.contradiction, llm: deps.llm, logger: deps.logger, ...(deps.signal ? { signal: deps.signal } : {}) });
  if (!v.contradicts || v.confidence < deps.contradiction.minConfidence) return undefined;
  return { kind, olderId: older.id, newerId: newer.id, similarity, reason: v.reason, confidence: v.confidence, detail: v.detail };
}

async function attributeConflicts(deps: ScanDeps): Promise<ConflictProposal[]> {
  const attrs = deps.store.read((db) => db.all<{ id: string; content: string; created_at: string; slot: string }>(
    `SELECT id, content, created_at, aspect_id || '|' || COALESCE(group_key, '') AS slot FROM entity_attributes
      WHERE status = 'active' AND kind = 'attribute' AND aspect_id IS NOT NULL ORDER BY updated_at DESC LIMIT ?`, [deps.graph.maintenanceWindow]));
  if (attrs.length < 2) return [];
  const keys = attrs.map((a) => a.slot);
  let pairs: { a: number; b: number; similarity: number }[];
  if (deps.embedder) {
    const vectors = await deps.embedder.embed(attrs.map((a) => a.content), deps.signal ? { signal: deps.signal } : {});
    pairs = findConflictCandidates(keys, vectors, deps.graph.conflictThreshold);
  } else {
    pairs = [];
    for (let i = 0; i < attrs.length; i++) for (let j = i + 1; j < attrs.length; j++) if (keys[i] === keys[j]) pairs.push({ a: i, b: j, similarity: 0 });
  }
  const out: ConflictProposal[] = [];
  for (const p of pairs) {
    const c = await checkPair('attribute', attrs[p.a] as (typeof attrs)[number], attrs[p.b] as (typeof attrs)[number], p.similarity, deps);
    if (c) out.push(c);
  }
  return out;
}

/**
 * Memory pairs where the newer one replaces the older (a newer decision about the same subject, a
 * changed setting value), within each project: found by words, so they are proposed even when the
 * two texts are far apart in embedding space and no LLM is configured.
 */
function memoryChanges(items: readonly Item[], skip: ReadonlySet<string>): ConflictProposal[] {
  const byProject = new Map<string, Item[]>();
  for (const i of items) {
    const list = byProject.get(i.project ?? '') ?? [];
    list.push(i);
    byProject.set(i.project ?? '', list);
  }
  const out: ConflictProposal[] = [];
  for (const group of byProject.values()) {
    const byId = new Map(group.map((i) => [i.id, i]));
    for (const f of findMemorySupersessions(group.map((i) => ({ id: i.id, type: i.type, content: i.content, createdAt: i.created_at })))) {
      if (skip.has(`${f.olderId}|${f.newerId}`)) continue;
      const a = byId.get(f.olderId) as Item;
      const b = byId.get(f.newerId) as Item;
      out.push({ kind: 'memory', olderId: f.olderId, newerId: f.newerId, similarity: cosineSimilarity(a.vector, b.vector), reason: f.kind, confidence: MEMORY_CHANGE_CONFIDENCE, detail: f.detail });
    }
  }
  return out;
}

export async function findDuplicatesAndConflicts(deps: ScanDeps): Promise<DuplicatesAndConflicts> {
  const items = loadItems(deps);
  const merges = proposeMerges(items, deps.graph.duplicateThreshold);
  const merged = new Set(merges.flatMap((m) => [m.keepId, m.dropId]));
  const conflicts: ConflictProposal[] = [];
  const candidates = findConflictCandidates(items.map((i) => i.type), items.map((i) => i.vector), deps.graph.conflictThreshold);
  for (const c of candidates) {
    const a = items[c.a] as Item;
    const b = items[c.b] as Item;
    if (merged.has(a.id) && merged.has(b.id)) continue;
    const found = await checkPair('memory', a, b, c.similarity, deps);
    if (found) conflicts.push(found);
  }
  conflicts.push(...memoryChanges(items, new Set(conflicts.map((c) => `${c.olderId}|${c.newerId}`))));
  conflicts.push(...await attributeConflicts(deps));
  const k = clusterCount(items.length);
  const { assignments } = kMeans(items.map((i) => i.vector), k, { rng: deps.rng });
  const clusters: string[][] = [];
  assignments.forEach((c, i) => { (clusters[c] ??= []).push((items[i] as Item).id); });
  return { scanned: items.length, merges, conflicts, clusters: clusters.filter((c) => c && c.length) };
}
