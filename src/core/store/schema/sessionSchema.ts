/**
 * Migration 3: sessions and the feedback loop. Conventions as in coreSchema.ts.
 */
import type { Migration } from '../migrations';
import { runAll } from './coreSchema';

/** sessions: one agent/chat session (a harness conversation) in a project, start to end. */
const SESSIONS = [
  `CREATE TABLE IF NOT EXISTS sessions (
    session_key TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL DEFAULT 'default',
    project TEXT,
    harness TEXT,
    status TEXT NOT NULL DEFAULT 'active',
    prompt_count INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    started_at TEXT NOT NULL,
    last_activity_at TEXT,
    ended_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS idx_sessions_project ON sessions(project, started_at DESC)',
];

/**
 * session_memories: every memory candidate a session considered (rank = 0-based record order),
 * whether it was injected, and the feedback signals: relevance_score (continuity scorer),
 * fts_hit_count (per-turn hits), agent_relevance_score / agent_feedback_count.
 * Migration 30 (compactSessionsSchema.ts) rebuilds it WITHOUT ROWID on (session_key, agent_id,
 * memory_id), without `id`, the unused columns and two indexes, and with `created_ms`.
 */
const SESSION_MEMORIES = [
  `CREATE TABLE IF NOT EXISTS session_memories (
    id TEXT PRIMARY KEY,
    session_key TEXT NOT NULL,
    agent_id TEXT NOT NULL DEFAULT 'default',
    memory_id TEXT NOT NULL,
    source TEXT NOT NULL,
    effective_score REAL,
    predictor_score REAL,
    final_score REAL NOT NULL DEFAULT 0,
    rank INTEGER NOT NULL,
    was_injected INTEGER NOT NULL DEFAULT 0,
    relevance_score REAL,
    fts_hit_count INTEGER NOT NULL DEFAULT 0,
    agent_preference TEXT,
    entity_slot INTEGER,
    aspect_slot INTEGER,
    is_constraint INTEGER NOT NULL DEFAULT 0,
    structural_density INTEGER,
    agent_relevance_score REAL,
    agent_feedback_count INTEGER NOT NULL DEFAULT 0,
    path_json TEXT,
    created_at TEXT NOT NULL,
    UNIQUE(session_key, agent_id, memory_id)
  )`,
  'CREATE INDEX IF NOT EXISTS idx_session_memories_session ON session_memories(session_key)',
  'CREATE INDEX IF NOT EXISTS idx_session_memories_memory ON session_memories(memory_id)',
  'CREATE INDEX IF NOT EXISTS idx_session_memories_agent ON session_memories(agent_id, session_key)',
];

/** session_scores: how useful recalled context was for a whole session (continuity scoring). */
const SESSION_SCORES = [
  `CREATE TABLE IF NOT EXISTS session_scores (
    id TEXT PRIMARY KEY,
    session_key TEXT NOT NULL,
    project TEXT,
    harness TEXT,
    score REAL NOT NULL,
    memories_recalled INTEGER,
    memories_used INTEGER,
    novel_context_count INTEGER,
    reasoning TEXT,
    confidence REAL,
    continuity_reasoning TEXT,
    created_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS idx_session_scores_project ON session_scores(project, created_at)',
  'CREATE INDEX IF NOT EXISTS idx_session_scores_session ON session_scores(session_key)',
];

/**
 * predictor_comparisons: per-session comparison of a predicted ranking against the baseline
 * (NDCG of each, who won, margin).
 */
const PREDICTOR_COMPARISONS = [
  `CREATE TABLE IF NOT EXISTS predictor_comparisons (
    id TEXT PRIMARY KEY,
    session_key TEXT NOT NULL,
    agent_id TEXT NOT NULL DEFAULT 'default',
    predictor_ndcg REAL,
    baseline_ndcg REAL,
    predictor_won INTEGER NOT NULL DEFAULT 0,
    margin REAL,
    alpha REAL,
    ema_updated INTEGER NOT NULL DEFAULT 0,
    focal_entity_id TEXT,
    focal_entity_name TEXT,
    project TEXT,
    candidate_count INTEGER,
    traversal_count INTEGER NOT NULL DEFAULT 0,
    constraint_count INTEGER NOT NULL DEFAULT 0,
    scorer_confidence REAL NOT NULL DEFAULT 0,
    success_rate REAL NOT NULL DEFAULT 0.5,
    predictor_top_ids TEXT NOT NULL DEFAULT '[]',
    baseline_top_ids TEXT NOT NULL DEFAULT '[]',
    relevance_scores TEXT NOT NULL DEFAULT '{}',
    fts_overlap_score REAL,
    created_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS idx_predictor_session ON predictor_comparisons(session_key)',
  'CREATE INDEX IF NOT EXISTS idx_predictor_project ON predictor_comparisons(project)',
  'CREATE INDEX IF NOT EXISTS idx_predictor_entity ON predictor_comparisons(focal_entity_id)',
];

export const SESSION_MIGRATION: Migration = {
  version: 3,
  name: 'sessions and feedback: sessions, session_memories, session_scores, predictor_comparisons',
  up(db) {
    runAll(db, [...SESSIONS, ...SESSION_MEMORIES, ...SESSION_SCORES, ...PREDICTOR_COMPARISONS]);
  },
};
