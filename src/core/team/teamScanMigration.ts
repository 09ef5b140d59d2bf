/**
 * Store migration 29: the change set the push scan reads (docs/team.md "How replication works",
 * "The push scan"). Before it, every push ran planScan over every memory of the shared projects;
 * now triggers note in `team_dirty` each memory whose planScan answer may have changed, and a push
 * plans over those rows only (teamOutbox.ts planScan with `dirtyOnly`), then empties the table in
 * the same write transaction that queues. A full pass still runs when the shared project list
 * differs from the one the last full pass covered (team_state 'scan_projects': a newly shared
 * project's older memories never fired a trigger under the old list), once a day as a safety net
 * (team_state 'scan_full_at'), and on `agent-memory team sync --full`. This migration records
 * neither key, so the first push after it is a full pass: existing stores are converted by that
 * pass, not by copying anything here.
 *
 * team_scan_projects holds the shared projects as rows (filled here from team_state, then kept by
 * triggers on team_state), so the memory triggers test a project with one key lookup.
 *
 * What fires a mark, one per planScan input (over-marking costs one row, under-marking would miss
 * a push, so each condition is a superset of what planScan can pick):
 * - memories: insert, delete, and an update of id, content, content_hash, is_deleted or project,
 *   when the old or new project is shared or the memory takes part in sharing (a team_shares row
 *   names it as memory_id or local_id);
 * - embeddings: an insert, or an update of its hash or source, for a memory with a team_shares row
 *   (the "vector computed since the push" case);
 * - team_shares: an insert or update leaving the row 'shared', and any delete (a memory without a
 *   share row is fresh again);
 * - team_outbox: any delete (an acknowledged or dropped entry lets "changed" see the memory again).
 * The marks are plain statements of the triggering write, so journal replay in other processes
 * produces the same rows (deterministic: no time, no random, docs/store.md "Determinism"); the
 * insert checks NOT EXISTS instead of OR IGNORE, because an outer statement's conflict clause
 * would override the trigger's.
 */
import type { Migration } from '../store/migrations';
import { runAll } from '../store/schema/coreSchema';

export const TEAM_SCAN_MIGRATION_VERSION = 29;

/**
 * Whether project expression `p` is shared: a key lookup in team_scan_projects, the set form of
 * team_state 'shared_projects' that the team_state triggers below keep, instead of parsing the
 * JSON list in every trigger run (what the triggers cost a pull: docs/team.md "The push scan").
 */
const shared = (p: string): string => `EXISTS (SELECT 1 FROM team_scan_projects WHERE project = ${p})`;

/** Rebuilds team_scan_projects from team_state (a damaged list shares nothing, like readTeamState). */
const CLEAR_PROJECTS = 'DELETE FROM team_scan_projects';
const FILL_PROJECTS = `INSERT INTO team_scan_projects (project)
       SELECT DISTINCT value FROM json_each((SELECT CASE WHEN json_valid(value) AND json_type(value) = 'array' THEN value ELSE '[]' END FROM team_state WHERE key = 'shared_projects'))
        WHERE type = 'text'`;
const REFILL_PROJECTS = `${CLEAR_PROJECTS}; ${FILL_PROJECTS};`;

const hasShare = (id: string): string =>
  `(EXISTS (SELECT 1 FROM team_shares WHERE memory_id = ${id}) OR EXISTS (SELECT 1 FROM team_shares WHERE local_id = ${id}))`;

const mark = (id: string): string =>
  `INSERT INTO team_dirty (memory_id) SELECT ${id} WHERE ${id} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM team_dirty WHERE memory_id = ${id});`;

export const TEAM_SCAN_TRIGGERS: readonly string[] = [
  `CREATE TRIGGER IF NOT EXISTS team_scan_projects_ai AFTER INSERT ON team_state WHEN new.key = 'shared_projects' BEGIN ${REFILL_PROJECTS} END`,
  `CREATE TRIGGER IF NOT EXISTS team_scan_projects_au AFTER UPDATE ON team_state WHEN old.key = 'shared_projects' OR new.key = 'shared_projects' BEGIN ${REFILL_PROJECTS} END`,
  `CREATE TRIGGER IF NOT EXISTS team_scan_projects_ad AFTER DELETE ON team_state WHEN old.key = 'shared_projects' BEGIN ${REFILL_PROJECTS} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_memories_ai AFTER INSERT ON memories
     WHEN ${shared('new.project')} OR ${hasShare('new.id')}
   BEGIN ${mark('new.id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_memories_au AFTER UPDATE OF id, content, content_hash, is_deleted, project ON memories
     WHEN ${shared('old.project')} OR ${shared('new.project')} OR ${hasShare('old.id')} OR ${hasShare('new.id')}
   BEGIN ${mark('old.id')} ${mark('new.id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_memories_ad AFTER DELETE ON memories
     WHEN ${shared('old.project')} OR ${hasShare('old.id')}
   BEGIN ${mark('old.id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_embeddings_ai AFTER INSERT ON embeddings
     WHEN new.source_type = 'memory' AND EXISTS (SELECT 1 FROM team_shares WHERE memory_id = new.source_id)
   BEGIN ${mark('new.source_id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_embeddings_au AFTER UPDATE OF content_hash, source_id, source_type ON embeddings
     WHEN new.source_type = 'memory' AND EXISTS (SELECT 1 FROM team_shares WHERE memory_id = new.source_id)
   BEGIN ${mark('new.source_id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_shares_ai AFTER INSERT ON team_shares WHEN new.state = 'shared'
   BEGIN ${mark('new.memory_id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_shares_au AFTER UPDATE ON team_shares WHEN new.state = 'shared'
   BEGIN ${mark('new.memory_id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_shares_ad AFTER DELETE ON team_shares
   BEGIN ${mark('old.memory_id')} ${mark('old.local_id')} END`,
  `CREATE TRIGGER IF NOT EXISTS team_dirty_outbox_ad AFTER DELETE ON team_outbox
   BEGIN ${mark('old.memory_id')} END`,
];

export const TEAM_SCAN_MIGRATION: Migration = {
  version: TEAM_SCAN_MIGRATION_VERSION,
  name: 'team push scan: team_dirty, team_scan_projects and the triggers that fill them',
  up(db) {
    runAll(db, [
      'CREATE TABLE IF NOT EXISTS team_dirty (memory_id TEXT PRIMARY KEY) WITHOUT ROWID',
      'CREATE TABLE IF NOT EXISTS team_scan_projects (project TEXT PRIMARY KEY) WITHOUT ROWID',
      ...TEAM_SCAN_TRIGGERS,
      CLEAR_PROJECTS,
      FILL_PROJECTS,
    ]);
  },
};
