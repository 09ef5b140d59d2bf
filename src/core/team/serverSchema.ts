/**
 * The team server's schema (PostgreSQL), as versioned migrations that `agent-memory team init`
 * applies with an administrator's connection (docs/team.md, "Roles and row-level security").
 *
 * Everything lives in the schema `agent_memory`. Members are login roles granted the group role
 * `agent_memory_member`; row-level security lets a member read every shared row of the team and
 * insert or update only rows whose `author` is the member's own role. Members have no DELETE
 * privilege at all: forgetting is an update to a tombstone (deleted = true, content cleared), so
 * every replica learns about it through the same sequence cursor as any other change.
 *
 * Ordering: a BEFORE trigger stamps each written row with the next value of `memory_seq` while
 * holding a transaction-scoped advisory lock, so writers take numbers one transaction at a time
 * and sequence order equals commit order. A reader that has seen row N has then seen every row
 * below N, so "seq > cursor" never skips a row that commits late with a smaller number.
 * A statement trigger sends NOTIFY agent_memory_team (delivered at commit) for live pulls.
 */
export const SERVER_SCHEMA = 'agent_memory';
export const MEMBER_ROLE = 'agent_memory_member';
export const NOTIFY_CHANNEL = 'agent_memory_team';
/** Key of the advisory lock that orders sequence numbers (any constant unique to this schema). */
export const SEQ_LOCK_KEY = 726_351_401;

export interface ServerMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const SERVER_MIGRATIONS: readonly ServerMigration[] = [
  {
    version: 1,
    name: 'shared memories with row-level security, sequence stamping and notifications',
    sql: `
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${MEMBER_ROLE}') THEN
    CREATE ROLE ${MEMBER_ROLE} NOLOGIN;
  END IF;
END $$;
GRANT USAGE ON SCHEMA ${SERVER_SCHEMA} TO ${MEMBER_ROLE};
GRANT SELECT ON ${SERVER_SCHEMA}.schema_migrations TO ${MEMBER_ROLE};
CREATE SEQUENCE ${SERVER_SCHEMA}.memory_seq;
CREATE TABLE ${SERVER_SCHEMA}.memories (
  id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 200),
  author text NOT NULL DEFAULT current_user,
  project text NOT NULL CHECK (length(project) BETWEEN 1 AND 500),
  type text NOT NULL DEFAULT 'fact',
  content text NOT NULL,
  content_hash text NOT NULL,
  tags text,
  importance real,
  confidence real,
  origin_store text,
  created_at text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted boolean NOT NULL DEFAULT false,
  model_id text,
  dimensions integer,
  vector bytea,
  seq bigint NOT NULL
);
CREATE INDEX memories_seq_idx ON ${SERVER_SCHEMA}.memories (seq);
CREATE INDEX memories_project_seq_idx ON ${SERVER_SCHEMA}.memories (project, seq);
CREATE FUNCTION ${SERVER_SCHEMA}.stamp() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM pg_advisory_xact_lock(${SEQ_LOCK_KEY});
  NEW.seq := nextval('${SERVER_SCHEMA}.memory_seq');
  NEW.updated_at := now();
  IF TG_OP = 'UPDATE' THEN
    NEW.id := OLD.id;
    NEW.author := OLD.author;
  END IF;
  RETURN NEW;
END $f$;
CREATE TRIGGER memories_stamp BEFORE INSERT OR UPDATE ON ${SERVER_SCHEMA}.memories
  FOR EACH ROW EXECUTE FUNCTION ${SERVER_SCHEMA}.stamp();
CREATE FUNCTION ${SERVER_SCHEMA}.notify() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM pg_notify('${NOTIFY_CHANNEL}', '');
  RETURN NULL;
END $f$;
CREATE TRIGGER memories_notify AFTER INSERT OR UPDATE ON ${SERVER_SCHEMA}.memories
  FOR EACH STATEMENT EXECUTE FUNCTION ${SERVER_SCHEMA}.notify();
ALTER TABLE ${SERVER_SCHEMA}.memories ENABLE ROW LEVEL SECURITY;
CREATE POLICY members_read ON ${SERVER_SCHEMA}.memories FOR SELECT TO ${MEMBER_ROLE} USING (true);
CREATE POLICY authors_insert ON ${SERVER_SCHEMA}.memories FOR INSERT TO ${MEMBER_ROLE} WITH CHECK (author = current_user);
CREATE POLICY authors_update ON ${SERVER_SCHEMA}.memories FOR UPDATE TO ${MEMBER_ROLE} USING (author = current_user) WITH CHECK (author = current_user);
GRANT SELECT, INSERT, UPDATE ON ${SERVER_SCHEMA}.memories TO ${MEMBER_ROLE};
GRANT USAGE ON SEQUENCE ${SERVER_SCHEMA}.memory_seq TO ${MEMBER_ROLE};
`,
  },
];

export const SERVER_SCHEMA_VERSION = SERVER_MIGRATIONS.reduce((m, x) => Math.max(m, x.version), 0);

/** The bootstrap statement every init runs first (idempotent). */
export const SERVER_BOOTSTRAP = `
CREATE SCHEMA IF NOT EXISTS ${SERVER_SCHEMA};
CREATE TABLE IF NOT EXISTS ${SERVER_SCHEMA}.schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);`;
