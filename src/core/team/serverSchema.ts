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
import { DEFAULT_EMBEDDING_MODEL, USE_LITE_DIMS } from '../config/modelConfig';

export const SERVER_SCHEMA = 'agent_memory';
export const MEMBER_ROLE = 'agent_memory_member';
export const NOTIFY_CHANNEL = 'agent_memory_team';
/** Key of the advisory lock that orders sequence numbers (any constant unique to this schema). */
export const SEQ_LOCK_KEY = 726_351_401;

export interface ServerMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * A PostgreSQL extension the migration needs. When the server cannot provide it (not
   * installed, or the role may not create it) the migration is skipped, not recorded, and tried
   * again by the next `team init`; everything else keeps working. Later migrations must not
   * depend on an optional one.
   */
  readonly requiresExtension?: string;
}

/** The embedding model whose vectors get an approximate (HNSW) index on the server: the default model. */
export const SEARCH_INDEX_MODEL = { id: DEFAULT_EMBEDDING_MODEL, dimensions: USE_LITE_DIMS } as const;
/** Text search configuration of the server's lexical arm: English stemming, as the local FTS (porter). */
export const SERVER_TS_CONFIG = 'english';
/** The server migration that adds the pgvector column; search uses the vector arm only when it is applied. */
export const VECTOR_MIGRATION_VERSION = 3;
/** The server migration that adds the tsvector column; server-side search needs it. */
export const SEARCH_MIGRATION_VERSION = 2;

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
  {
    // Server-side search, lexical arm (docs/team.md "Past one local replica"): a generated tsvector
    // of the content with a GIN index. Plain PostgreSQL has everything it needs.
    version: SEARCH_MIGRATION_VERSION,
    name: 'server-side search: generated tsvector column with a GIN index',
    sql: `
ALTER TABLE ${SERVER_SCHEMA}.memories
  ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('${SERVER_TS_CONFIG}', content)) STORED;
CREATE INDEX memories_search_idx ON ${SERVER_SCHEMA}.memories USING gin (search);
`,
  },
  {
    // Server-side search, vector arm: a pgvector column kept from the pushed vector bytes (either
    // stored layout of models/vectorStore.ts: float32, or a float32 scale + int8 components) by a
    // BEFORE trigger, so clients push exactly what they pushed before. The column has no fixed
    // dimension (rows carry their model id and dimension); an HNSW index covers the default
    // model's rows, and a query for another model scans that model's rows exactly. The backfill
    // runs with the stamping and notify triggers off: filling a derived column is not a change
    // replicas must pull again.
    version: VECTOR_MIGRATION_VERSION,
    name: 'server-side search: pgvector column kept from the pushed vectors, HNSW index for the default model',
    requiresExtension: 'vector',
    sql: `
ALTER TABLE ${SERVER_SCHEMA}.memories ADD COLUMN embedding vector;
CREATE FUNCTION ${SERVER_SCHEMA}.float32_bits(w bigint) RETURNS double precision LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
  SELECT CASE
    WHEN (w >> 23) & 255 = 255 THEN 0::double precision
    WHEN (w >> 23) & 255 = 0 THEN (1 - 2 * (w >> 31)) * (w & 8388607) * 2::double precision ^ (-149)
    ELSE (1 - 2 * (w >> 31)) * (1 + (w & 8388607) / 8388608.0::double precision) * 2::double precision ^ (((w >> 23) & 255) - 127)
  END
$f$;
CREATE FUNCTION ${SERVER_SCHEMA}.float32_at(b bytea, o integer) RETURNS double precision LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
  SELECT ${SERVER_SCHEMA}.float32_bits(get_byte(b, o)::bigint | (get_byte(b, o + 1)::bigint << 8) | (get_byte(b, o + 2)::bigint << 16) | (get_byte(b, o + 3)::bigint << 24))
$f$;
CREATE FUNCTION ${SERVER_SCHEMA}.blob_vector(b bytea, dims integer) RETURNS vector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
  SELECT CASE
    WHEN dims < 1 OR dims > 16000 THEN NULL
    WHEN length(b) = dims * 4 THEN (SELECT array_agg(${SERVER_SCHEMA}.float32_at(b, 4 * i) ORDER BY i) FROM generate_series(0, dims - 1) AS i)::real[]::vector
    WHEN length(b) = dims + 4 THEN (SELECT array_agg(((get_byte(b, 4 + i) # 128) - 128) * sc.s ORDER BY i)
                                      FROM (SELECT ${SERVER_SCHEMA}.float32_at(b, 0) AS s) AS sc, generate_series(0, dims - 1) AS i)::real[]::vector
  END
$f$;
CREATE FUNCTION ${SERVER_SCHEMA}.embed() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  NEW.embedding := CASE WHEN NOT NEW.deleted AND NEW.vector IS NOT NULL AND NEW.dimensions IS NOT NULL
                        THEN ${SERVER_SCHEMA}.blob_vector(NEW.vector, NEW.dimensions) END;
  RETURN NEW;
END $f$;
CREATE TRIGGER memories_embed BEFORE INSERT OR UPDATE ON ${SERVER_SCHEMA}.memories
  FOR EACH ROW EXECUTE FUNCTION ${SERVER_SCHEMA}.embed();
ALTER TABLE ${SERVER_SCHEMA}.memories DISABLE TRIGGER memories_stamp;
ALTER TABLE ${SERVER_SCHEMA}.memories DISABLE TRIGGER memories_notify;
UPDATE ${SERVER_SCHEMA}.memories SET embedding = ${SERVER_SCHEMA}.blob_vector(vector, dimensions)
 WHERE NOT deleted AND vector IS NOT NULL AND dimensions IS NOT NULL;
ALTER TABLE ${SERVER_SCHEMA}.memories ENABLE TRIGGER memories_stamp;
ALTER TABLE ${SERVER_SCHEMA}.memories ENABLE TRIGGER memories_notify;
CREATE INDEX memories_embedding_default_idx ON ${SERVER_SCHEMA}.memories
  USING hnsw ((embedding::vector(${SEARCH_INDEX_MODEL.dimensions})) vector_cosine_ops)
  WHERE model_id = '${SEARCH_INDEX_MODEL.id}' AND dimensions = ${SEARCH_INDEX_MODEL.dimensions} AND NOT deleted;
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
