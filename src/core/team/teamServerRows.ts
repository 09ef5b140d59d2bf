/**
 * The server side of a sync, one round trip each (docs/team.md "How replication works"): a push
 * batch as one `INSERT … ON CONFLICT DO UPDATE` from a JSON recordset in one transaction, and a
 * pull page by the sequence cursor. teamSync.ts decides when these run.
 */
import type { Client } from 'pg';
import type { Logger } from '../logger';
import type { IncomingRow } from './teamApply';
import { pushAck } from './teamOutbox';
import type { OutboxItem, PushAck } from './teamOutbox';
import { SERVER_SCHEMA } from './serverSchema';
import type { ServerSql } from './serverSql';

const PUSH_SQL = `
INSERT INTO ${SERVER_SCHEMA}.memories AS m (id, project, type, content, content_hash, tags, importance, confidence, origin_store, created_at, deleted, model_id, dimensions, vector)
SELECT x.id, x.project, x.type, x.content, x.content_hash, x.tags, x.importance, x.confidence, $2, x.created_at, x.deleted, x.model_id, x.dimensions, decode(x.vector, 'base64')
  FROM jsonb_to_recordset($1::jsonb) AS x(id text, project text, type text, content text, content_hash text, tags text, importance real, confidence real,
                                          created_at text, deleted boolean, model_id text, dimensions integer, vector text)
ON CONFLICT (id) DO UPDATE SET project = EXCLUDED.project, type = EXCLUDED.type, content = EXCLUDED.content, content_hash = EXCLUDED.content_hash,
  tags = EXCLUDED.tags, importance = EXCLUDED.importance, confidence = EXCLUDED.confidence, deleted = EXCLUDED.deleted,
  model_id = EXCLUDED.model_id, dimensions = EXCLUDED.dimensions, vector = EXCLUDED.vector
  WHERE (m.content_hash, m.deleted, m.project, m.type, COALESCE(m.tags, ''), m.model_id IS NULL)
        IS DISTINCT FROM (EXCLUDED.content_hash, EXCLUDED.deleted, EXCLUDED.project, EXCLUDED.type, COALESCE(EXCLUDED.tags, ''), EXCLUDED.model_id IS NULL)
RETURNING id, author, seq`;

const PULL_SQL = `
SELECT id, author, project, type, content, content_hash, tags, importance, confidence, created_at, deleted, model_id, dimensions, vector, seq
  FROM ${SERVER_SCHEMA}.memories WHERE seq > $1 AND project = ANY($2::text[]) ORDER BY seq LIMIT $3`;

const BY_ID_SQL = `
SELECT id, author, project, type, content, content_hash, tags, importance, confidence, created_at, deleted, model_id, dimensions, vector, seq
  FROM ${SERVER_SCHEMA}.memories WHERE id = ANY($1::text[]) AND project = ANY($2::text[]) AND NOT deleted`;

/** A partial replica's pull page: which rows changed, without their content or vectors. */
const LIGHT_PULL_SQL = `
SELECT id, author, project, deleted, seq FROM ${SERVER_SCHEMA}.memories WHERE seq > $1 AND project = ANY($2::text[]) ORDER BY seq LIMIT $3`;

const ANY_BY_ID_SQL = `
SELECT id, author, project, type, content, content_hash, tags, importance, confidence, created_at, deleted, model_id, dimensions, vector, seq
  FROM ${SERVER_SCHEMA}.memories WHERE id = ANY($1::text[]) AND project = ANY($2::text[])`;

/** SQLSTATE classes that make one row permanently unacceptable (retrying cannot help). */
const isRowRefusal = (code: string): boolean => code === '42501' || code.startsWith('23') || code.startsWith('22');

/**
 * Sends one outbox batch in one server transaction. A row the server refuses for good (RLS, a
 * constraint, bad data) spoils the batch: it is then sent one row at a time, so only the refused
 * rows stay behind (acknowledged as refused, logged).
 */
export async function sendBatch(client: Client, batch: readonly OutboxItem[], storeId: string, logger: Logger): Promise<PushAck[]> {
  try {
    return await sendRows(client, batch, storeId);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !isRowRefusal(code) || batch.length === 1) {
      if (batch.length === 1 && typeof code === 'string' && isRowRefusal(code)) return [refusedAck(batch[0] as OutboxItem, code, logger)];
      throw e;
    }
    // One row spoiled the batch: send one at a time so only the refused rows stay behind.
    const acks: PushAck[] = [];
    for (const item of batch) {
      try {
        acks.push(...await sendRows(client, [item], storeId));
      } catch (inner) {
        const c = (inner as { code?: unknown }).code;
        if (typeof c === 'string' && isRowRefusal(c)) acks.push(refusedAck(item, c, logger));
        else throw inner;
      }
    }
    return acks;
  }
}

async function sendRows(client: Client, batch: readonly OutboxItem[], storeId: string): Promise<PushAck[]> {
  await client.query('BEGIN');
  let rows: { id: string; author: string; seq: string }[];
  try {
    rows = (await client.query<{ id: string; author: string; seq: string }>(PUSH_SQL, [JSON.stringify(batch.map((b) => b.row)), storeId])).rows;
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return batch.map((b) => {
    const r = byId.get(b.memoryId);
    return pushAck(b, r ? { author: r.author, seq: Number(r.seq) } : undefined);
  });
}

/** The next page of rows of the shared projects after `cursor`, in sequence (commit) order. */
export async function fetchPulled(client: Client, cursor: number, projects: readonly string[], limit: number): Promise<IncomingRow[]> {
  return (await client.query<RawRow>(PULL_SQL, [cursor, projects, limit])).rows.map(toIncoming);
}

/** Whole rows by id (the team memories a recall found, to replicate them), of the shared projects only. */
export async function fetchByIds(sql: ServerSql, ids: readonly string[], projects: readonly string[]): Promise<IncomingRow[]> {
  if (ids.length === 0) return [];
  return (await sql.query<RawRow>(BY_ID_SQL, [ids, projects])).rows.map(toIncoming);
}

/** A row of a pull page before its content is fetched. */
export interface PulledHeader { readonly id: string; readonly author: string; readonly project: string; readonly deleted: boolean; readonly seq: number }

/**
 * A partial replica's pull page (docs/team.md "Partial replicas"): the page's headers first, then
 * whole rows only for those `wanted` names (rows the store holds, one's own), so teammates' content
 * and vectors the store will not keep never cross the network. Every header is returned in sequence
 * order, so the cursor still moves past the whole page: a row not fetched comes back without
 * content (applyPulled passes over it as not held). A fetched row keeps its header's sequence
 * number even if it changed in between (the newer state is applied now, and again, as a no-op, when
 * the cursor reaches its new number), so the cursor never jumps over rows of the page.
 */
export async function fetchPulledPartial(sql: ServerSql, cursor: number, projects: readonly string[], limit: number, wanted: (headers: readonly PulledHeader[]) => ReadonlySet<string>): Promise<IncomingRow[]> {
  const headers = (await sql.query<{ id: string; author: string; project: string; deleted: boolean; seq: string }>(LIGHT_PULL_SQL, [cursor, projects, limit])).rows
    .map((h) => ({ id: h.id, author: h.author, project: h.project, deleted: h.deleted, seq: Number(h.seq) }));
  const want = headers.length > 0 ? wanted(headers) : new Set<string>();
  const full = new Map<string, IncomingRow>();
  if (want.size > 0) for (const r of (await sql.query<RawRow>(ANY_BY_ID_SQL, [[...want], projects])).rows) full.set(r.id, toIncoming(r));
  return headers.map((h) => {
    const f = full.get(h.id);
    return f ? { ...f, seq: h.seq } : {
      id: h.id, author: h.author, project: h.project, deleted: h.deleted, seq: h.seq, type: '', content: '', content_hash: '', tags: null,
      importance: null, confidence: null, created_at: '', model_id: null, dimensions: null, vector: null,
    };
  });
}

interface RawRow {
  id: string; author: string; project: string; type: string; content: string; content_hash: string; tags: string | null;
  importance: number | null; confidence: number | null; created_at: string; deleted: boolean; model_id: string | null;
  dimensions: number | null; vector: Buffer | null; seq: string;
}

function toIncoming(r: RawRow): IncomingRow {
  // pg returns bytea as a Buffer, PGlite as a Uint8Array: both are views over bytes.
  return { ...r, vector: r.vector ? new Uint8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength) : null, seq: Number(r.seq) };
}

function refusedAck(item: OutboxItem, code: string, logger: Logger): PushAck {
  logger.warn(`team: the server refused memory ${item.memoryId} (SQLSTATE ${code}); it stays local only.`);
  return { ...pushAck(item), vectorPushed: false, refused: true };
}
