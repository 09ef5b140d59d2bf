/**
 * Migration for the feedback loop: tables the store schema does not hold.
 * Conventions as in store/schema/coreSchema.ts: ISO text times from the injected clock, no time or
 * random defaults (the journal replays statements), agent_id as the scope.
 */
import type { Migration } from '../store/migrations';

/** aspect_feedback_log: every weight change made by feedback ('fts') or decay ('decay'). */
const ASPECT_FEEDBACK_LOG = [
  `CREATE TABLE IF NOT EXISTS aspect_feedback_log (
    id INTEGER PRIMARY KEY,
    aspect_id TEXT NOT NULL,
    agent_id TEXT NOT NULL DEFAULT 'default',
    kind TEXT NOT NULL,
    session_key TEXT,
    confirmations INTEGER NOT NULL DEFAULT 0,
    weight_before REAL NOT NULL,
    weight_after REAL NOT NULL,
    created_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS idx_aspect_feedback_log_time ON aspect_feedback_log(agent_id, kind, created_at)',
  'CREATE INDEX IF NOT EXISTS idx_aspect_feedback_log_aspect ON aspect_feedback_log(aspect_id)',
];

/** predictor_models: the serialised learned ranker per agent (predictor/logisticModel.ts). */
const PREDICTOR_MODELS = `CREATE TABLE IF NOT EXISTS predictor_models (
  agent_id TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  sessions_trained INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
)`;

/** feedback_counters: per-agent counters, e.g. sessions ended since the last decay. */
const FEEDBACK_COUNTERS = `CREATE TABLE IF NOT EXISTS feedback_counters (
  agent_id TEXT NOT NULL,
  name TEXT NOT NULL,
  value INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, name)
)`;

/**
 * maintenance_runs: one row per task run, with a resumable cursor, progress and a JSON summary.
 * status: running | completed | failed. A running row whose lease expired is resumed.
 */
const MAINTENANCE_RUNS = [
  `CREATE TABLE IF NOT EXISTS maintenance_runs (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    task TEXT NOT NULL,
    status TEXT NOT NULL,
    cursor TEXT,
    processed INTEGER NOT NULL DEFAULT 0,
    total INTEGER,
    summary TEXT,
    error TEXT,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS idx_maintenance_runs_task ON maintenance_runs(task, status, updated_at)',
];

/** maintenance_lease: at most one window runs scheduled maintenance at a time. */
const MAINTENANCE_LEASE = `CREATE TABLE IF NOT EXISTS maintenance_lease (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  acquired_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
)`;

/** session_turns: the transcript of a live session, one row per turn, so an ended window can resume. */
const SESSION_TURNS = [
  `CREATE TABLE IF NOT EXISTS session_turns (
    id TEXT PRIMARY KEY,
    session_key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE(session_key, seq)
  )`,
];

export const FEEDBACK_LOOP_TABLES = ['aspect_feedback_log', 'predictor_models', 'feedback_counters', 'maintenance_runs', 'maintenance_lease', 'session_turns'] as const;

/** Version of this migration in the store's list (after core 1, graph 2, sessions 3). */
export const FEEDBACK_LOOP_MIGRATION_VERSION = 20;

export function feedbackLoopMigration(version = FEEDBACK_LOOP_MIGRATION_VERSION): Migration {
  return {
    version,
    name: 'feedback loop: aspect_feedback_log, predictor_models, feedback_counters, maintenance_runs, maintenance_lease, session_turns',
    up(db) {
      for (const sql of [...ASPECT_FEEDBACK_LOG, PREDICTOR_MODELS, FEEDBACK_COUNTERS, ...MAINTENANCE_RUNS, MAINTENANCE_LEASE, ...SESSION_TURNS]) db.run(sql);
      if (db.hasTable('sessions')) {
        // end_step: the last completed step of session-end processing (resumable); end_reason: why it ended.
        db.addColumnIfMissing('sessions', 'end_step', 'TEXT');
        db.addColumnIfMissing('sessions', 'end_reason', 'TEXT');
        db.addColumnIfMissing('sessions', 'focal_entity_ids', "TEXT NOT NULL DEFAULT '[]'");
      }
      // method: 'llm' or 'proxy' (the deterministic no-LLM overlap score).
      if (db.hasTable('session_scores')) db.addColumnIfMissing('session_scores', 'method', "TEXT NOT NULL DEFAULT 'llm'");
      // metric: what predictor_ndcg/baseline_ndcg hold; this code writes 'mrr' (mean reciprocal rank of paid-off candidates).
      if (db.hasTable('predictor_comparisons')) db.addColumnIfMissing('predictor_comparisons', 'metric', "TEXT NOT NULL DEFAULT 'ndcg'");
    },
  };
}
