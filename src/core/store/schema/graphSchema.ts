/**
 * Migration 2: the knowledge graph.
 * Conventions as in coreSchema.ts (TEXT ids, ISO times from the clock, 0/1 booleans).
 */
import type { Migration } from '../migrations';
import { runAll } from './coreSchema';

/**
 * entities: people, projects, tools, concepts ... `canonical_name` is trimmed, lowercased,
 * whitespace-collapsed and unique per (agent, scope). `mentions` counts linking memories.
 * Pinned entities (pinned=1, pinned_at) are always focal in recall. `scope` is the
 * project the entity belongs to, NULL for global ones.
 */
const ENTITIES = [
  `CREATE TABLE IF NOT EXISTS entities (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    entity_type TEXT NOT NULL DEFAULT 'unknown',
    description TEXT,
    mentions INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    pinned_at TEXT,
    scope TEXT,
    agent_id TEXT NOT NULL DEFAULT 'default',
    status TEXT NOT NULL DEFAULT 'active',
    embedding BLOB,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  "CREATE UNIQUE INDEX IF NOT EXISTS uq_entities_canonical ON entities(agent_id, COALESCE(scope, ''), canonical_name)",
  'CREATE INDEX IF NOT EXISTS idx_entities_pinned ON entities(agent_id, pinned, pinned_at DESC)',
  'CREATE INDEX IF NOT EXISTS idx_entities_order ON entities(agent_id, pinned DESC, pinned_at DESC, mentions DESC, updated_at DESC, name)',
  'CREATE INDEX IF NOT EXISTS idx_entities_type ON entities(entity_type)',
];

/** entities_fts: external-content FTS5 over entity name and canonical name, kept by triggers. */
const ENTITIES_FTS = [
  "CREATE VIRTUAL TABLE IF NOT EXISTS entities_fts USING fts5(name, canonical_name, content='entities', content_rowid='rowid')",
  `CREATE TRIGGER IF NOT EXISTS entities_fts_ai AFTER INSERT ON entities BEGIN
     INSERT INTO entities_fts(rowid, name, canonical_name) VALUES (new.rowid, new.name, new.canonical_name);
   END`,
  `CREATE TRIGGER IF NOT EXISTS entities_fts_ad AFTER DELETE ON entities BEGIN
     INSERT INTO entities_fts(entities_fts, rowid, name, canonical_name) VALUES ('delete', old.rowid, old.name, old.canonical_name);
   END`,
  `CREATE TRIGGER IF NOT EXISTS entities_fts_au AFTER UPDATE OF name, canonical_name ON entities BEGIN
     INSERT INTO entities_fts(entities_fts, rowid, name, canonical_name) VALUES ('delete', old.rowid, old.name, old.canonical_name);
     INSERT INTO entities_fts(rowid, name, canonical_name) VALUES (new.rowid, new.name, new.canonical_name);
   END`,
];

/**
 * relations: directed, typed edges between entities. Upsert key (source, target, type); a repeat
 * increments `mentions` and averages `confidence`.
 */
const RELATIONS = [
  `CREATE TABLE IF NOT EXISTS relations (
    id TEXT PRIMARY KEY,
    source_entity_id TEXT NOT NULL,
    target_entity_id TEXT NOT NULL,
    relation_type TEXT NOT NULL,
    strength REAL NOT NULL DEFAULT 1.0,
    confidence REAL NOT NULL DEFAULT 0.5,
    mentions INTEGER NOT NULL DEFAULT 1,
    metadata TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE(source_entity_id, target_entity_id, relation_type)
  )`,
  'CREATE INDEX IF NOT EXISTS idx_relations_source ON relations(source_entity_id, relation_type)',
  'CREATE INDEX IF NOT EXISTS idx_relations_target ON relations(target_entity_id)',
];

/** memory_entity_mentions: which memory mentions which entity (drives graph boost, degree). */
const MENTIONS = [
  `CREATE TABLE IF NOT EXISTS memory_entity_mentions (
    memory_id TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    mention_text TEXT,
    confidence REAL NOT NULL DEFAULT 1.0,
    created_at TEXT NOT NULL,
    PRIMARY KEY (memory_id, entity_id)
  )`,
  'CREATE INDEX IF NOT EXISTS idx_mentions_entity ON memory_entity_mentions(entity_id)',
];

/** entity_aspects: named facets of an entity (e.g. "food preferences") with a learned weight. */
const ASPECTS = [
  `CREATE TABLE IF NOT EXISTS entity_aspects (
    id TEXT PRIMARY KEY,
    entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL DEFAULT 'default',
    name TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    weight REAL NOT NULL DEFAULT 0.5,
    status TEXT NOT NULL DEFAULT 'active',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE(entity_id, canonical_name)
  )`,
  'CREATE INDEX IF NOT EXISTS idx_aspects_entity ON entity_aspects(entity_id)',
  'CREATE INDEX IF NOT EXISTS idx_aspects_weight ON entity_aspects(weight DESC)',
];

/**
 * entity_attributes: claims about an entity under an aspect (aspect_id NULL = unclassified stub).
 * kind attribute | constraint; status active | superseded | deleted with superseded_by; group_key
 * and claim_key (normalised slot keys) drive supersession.
 */
const ATTRIBUTES = [
  `CREATE TABLE IF NOT EXISTS entity_attributes (
    id TEXT PRIMARY KEY,
    entity_id TEXT,
    aspect_id TEXT REFERENCES entity_aspects(id) ON DELETE SET NULL,
    agent_id TEXT NOT NULL DEFAULT 'default',
    memory_id TEXT REFERENCES memories(id) ON DELETE SET NULL,
    kind TEXT NOT NULL DEFAULT 'attribute' CHECK (kind IN ('attribute', 'constraint')),
    content TEXT NOT NULL,
    normalized_content TEXT,
    confidence REAL NOT NULL DEFAULT 0,
    importance REAL NOT NULL DEFAULT 0.5,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded', 'deleted')),
    superseded_by TEXT,
    group_key TEXT,
    claim_key TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS idx_attributes_aspect ON entity_attributes(aspect_id)',
  'CREATE INDEX IF NOT EXISTS idx_attributes_entity ON entity_attributes(entity_id)',
  'CREATE INDEX IF NOT EXISTS idx_attributes_memory ON entity_attributes(memory_id)',
  'CREATE INDEX IF NOT EXISTS idx_attributes_status ON entity_attributes(status)',
  'CREATE INDEX IF NOT EXISTS idx_attributes_claim ON entity_attributes(agent_id, aspect_id, claim_key, status) WHERE claim_key IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS idx_attributes_group ON entity_attributes(agent_id, aspect_id, group_key, status) WHERE group_key IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS idx_attributes_group_claim ON entity_attributes(agent_id, aspect_id, group_key, claim_key, status)',
];

/**
 * graph_ops: audit log of every graph mutation (create/merge/rename/pin/unpin/delete of entities,
 * relations, aspects, attributes): who did it, to what, and a JSON details payload.
 */
const GRAPH_OPS = [
  `CREATE TABLE IF NOT EXISTS graph_ops (
    id TEXT PRIMARY KEY,
    op TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id TEXT,
    memory_id TEXT,
    actor TEXT NOT NULL DEFAULT 'system',
    details TEXT,
    created_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS idx_graph_ops_target ON graph_ops(target_kind, target_id)',
  'CREATE INDEX IF NOT EXISTS idx_graph_ops_created ON graph_ops(created_at)',
];

export const GRAPH_MIGRATION: Migration = {
  version: 2,
  name: 'knowledge graph: entities (+fts), relations, mentions, aspects, attributes, graph_ops',
  up(db) {
    runAll(db, [...ENTITIES, ...ENTITIES_FTS, ...RELATIONS, ...MENTIONS, ...ASPECTS, ...ATTRIBUTES, ...GRAPH_OPS]);
  },
};
