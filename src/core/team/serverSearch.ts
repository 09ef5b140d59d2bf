/**
 * Server-side hybrid search over the team's shared memories (docs/team.md "Past one local
 * replica"), for teams whose shared memories no longer fit one local replica. It runs as the
 * member's own role, so the server's row-level security applies to every read, and it searches
 * only the projects the caller shares (the same projects a pull would bring).
 *
 * Arms, on the server (server migrations 2 and 3, serverSchema.ts):
 *  - lexical: the query's terms (recall's queryTerms) each as a `plainto_tsquery` over the
 *    generated `search` tsvector (GIN index), OR-ed; per candidate the number of terms hit and
 *    `ts_rank_cd`, scored like the local lexical arm (termProbe.ts: the majority-hit rule, then
 *    (hits − 1 + rankNorm) / terms blended by lexical.hitWeight);
 *  - vector (only when the server has pgvector): cosine distance of the `embedding` column to
 *    the query vector, restricted to rows of the query's model id and dimension (rows of other
 *    models are never compared), through the HNSW index when the model is the indexed one.
 * Fusion is local recall's (evidenceShaping.ts shapeScore: alpha · semantic + (1 − alpha) ·
 * lexical, the semantic channel max-normalised when vector.normalise), minScore, then top-k.
 * Hints, traversal and the stages after fusion need the local graph, so they do not run here.
 */
import type { SearchConfig } from '../config/searchConfig';
import { MemoryError } from '../errors';
import { shapeScore } from '../recall/evidenceShaping';
import { queryTerms } from '../recall/queryTerms';
import type { ChannelScores } from '../recall/recallTypes';
import { normaliseBm25, probedLexicalScore, requiredHits } from '../recall/termProbe';
import { SEARCH_MIGRATION_VERSION, SERVER_SCHEMA, SERVER_TS_CONFIG, VECTOR_MIGRATION_VERSION } from './serverSchema';
import type { ServerSql } from './serverSql';

export interface ServerSearchRequest {
  readonly query: string;
  /** The projects to search: the caller's shared projects (or one of them). */
  readonly projects: readonly string[];
  /** Results to return (default: the search config's topK). */
  readonly limit?: number;
  /** The query embedded by the local model; without it, or on a server without pgvector, lexical only. */
  readonly queryVector?: { readonly modelId: string; readonly vector: Float32Array };
}

export interface ServerSearchHit {
  readonly id: string;
  readonly content: string;
  readonly project: string;
  readonly type: string;
  readonly createdAt: string;
  /** The PostgreSQL role that shared it. */
  readonly author: string;
  /** True when the author is the role searching. */
  readonly mine: boolean;
  readonly score: number;
  readonly channels: { readonly lexical: number; readonly semantic: number };
  readonly sources: readonly ('lexical' | 'vector')[];
  readonly termsHit?: number;
  readonly termCount?: number;
}

/** Why the vector arm did or did not run. */
export type VectorArmState = 'used' | 'server-lacks-pgvector' | 'no-query-vector';

export interface ServerSearchResult {
  readonly hits: readonly ServerSearchHit[];
  readonly vector: VectorArmState;
  /** Query terms the server's text search kept (stop words drop out). */
  readonly lexicalTerms: number;
  readonly notes: readonly string[];
}

/** The sentence a user sees when the server cannot run the vector arm. */
export const NO_PGVECTOR_NOTE = 'The team server lacks pgvector (the "vector" extension): server-side search is lexical only. Install or enable pgvector on the server and run `agent-memory team init` again (docs/team.md).';

const MODEL_ID = /^[\w.:/@+-]{1,200}$/;
const MAX_DIMS = 16_000;
/** hnsw.ef_search bounds (pgvector accepts 1..1000). */
const EF_MIN = 40, EF_MAX = 1000;

interface LexRow { id: string; rank: number; hits: number }
interface VecRow { id: string; distance: number }
interface HydratedRow { id: string; content: string; project: string; type: string; created_at: string; author: string; mine: boolean; distance: number | null }

export const vectorLiteral = (v: Float32Array): string => `[${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;
const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

function checkRequest(req: ServerSearchRequest): void {
  if (req.query.trim() === '') throw new MemoryError('E_USAGE', 'team search needs a query, e.g. agent-memory team search "which database do we use"');
  if (req.projects.length === 0) throw new MemoryError('E_INVALID_INPUT', 'No shared project to search: share one first with `agent-memory team share --project NAME`.');
  const qv = req.queryVector;
  if (qv && (!MODEL_ID.test(qv.modelId) || qv.vector.length < 1 || qv.vector.length > MAX_DIMS)) {
    throw new MemoryError('E_INVALID_INPUT', `The query vector must come from a model with a plain id and 1-${MAX_DIMS} dimensions (got "${qv.modelId}", ${qv.vector.length}).`);
  }
}

/** Which search migrations the server has applied. */
async function serverFeatures(sql: ServerSql): Promise<{ lexical: boolean; vector: boolean; pgvector: string | undefined }> {
  const r = await sql.query<{ version: number }>(`SELECT version FROM ${SERVER_SCHEMA}.schema_migrations WHERE version IN ($1, $2)`, [SEARCH_MIGRATION_VERSION, VECTOR_MIGRATION_VERSION]);
  const versions = new Set(r.rows.map((x) => Number(x.version)));
  const vector = versions.has(VECTOR_MIGRATION_VERSION);
  const ext = vector ? (await sql.query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'")).rows[0]?.v : undefined;
  return { lexical: versions.has(SEARCH_MIGRATION_VERSION), vector, pgvector: ext };
}

/** The query's terms as the server's text search normalises them (empty ones, stop words, dropped). */
async function serverTerms(sql: ServerSql, terms: readonly string[]): Promise<string[]> {
  if (terms.length === 0) return [];
  const r = await sql.query<{ q: string }>(`SELECT plainto_tsquery('${SERVER_TS_CONFIG}', t)::text AS q FROM unnest($1::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n`, [terms]);
  return [...new Set(r.rows.map((x) => x.q).filter((q) => q !== ''))];
}

async function lexicalArm(sql: ServerSql, tsTerms: readonly string[], projects: readonly string[], limit: number): Promise<LexRow[]> {
  if (tsTerms.length === 0) return [];
  const any = tsTerms.map((q) => `(${q})`).join(' | ');
  const r = await sql.query<LexRow>(
    `SELECT m.id, ts_rank_cd(m.search, $1::tsquery) AS rank,
            (SELECT count(*) FROM unnest($2::text[]) AS q(t) WHERE m.search @@ q.t::tsquery)::int AS hits
       FROM ${SERVER_SCHEMA}.memories m
      WHERE m.search @@ $1::tsquery AND NOT m.deleted AND m.project = ANY($3::text[])
      ORDER BY hits DESC, rank DESC LIMIT $4`, [any, tsTerms, projects, limit]);
  return r.rows.map((x) => ({ id: x.id, rank: Number(x.rank), hits: Number(x.hits) }));
}

/**
 * The vector arm. The model id and dimension are literals in the statement so the planner can
 * match the partial HNSW index (its predicate names the indexed model); rows of other models are
 * excluded by the same predicate. With a project filter an HNSW scan may stop short of `limit`:
 * ef_search is raised to the candidate count and, on pgvector 0.8+, iterative scans continue
 * until enough rows pass the filter.
 */
export function vectorArmStatement(modelId: string, dims: number): string {
  const distance = `(m.embedding::vector(${dims})) <=> $1::vector(${dims})`;
  return `SELECT m.id, ${distance} AS distance FROM ${SERVER_SCHEMA}.memories m
        WHERE m.model_id = ${sqlString(modelId)} AND m.dimensions = ${dims} AND NOT m.deleted AND m.embedding IS NOT NULL AND m.project = ANY($2::text[])
        ORDER BY ${distance} LIMIT $3`;
}

async function vectorArm(sql: ServerSql, qv: NonNullable<ServerSearchRequest['queryVector']>, projects: readonly string[], limit: number, pgvector: string | undefined): Promise<VecRow[]> {
  await sql.query('BEGIN');
  try {
    await sql.query("SELECT set_config('hnsw.ef_search', $1, true)", [String(Math.min(EF_MAX, Math.max(EF_MIN, limit)))]);
    if (pgvector && versionAtLeast(pgvector, [0, 8])) await sql.query("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)");
    const r = await sql.query<VecRow>(vectorArmStatement(qv.modelId, qv.vector.length), [vectorLiteral(qv.vector), projects, limit]);
    await sql.query('COMMIT');
    return r.rows.map((x) => ({ id: x.id, distance: Number(x.distance) }));
  } catch (e) {
    await sql.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

function versionAtLeast(v: string, min: readonly number[]): boolean {
  const parts = v.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < min.length; i++) {
    const a = parts[i] ?? 0, b = min[i] as number;
    if (a !== b) return a > b;
  }
  return true;
}

/** Content, marks and (with a query vector) the cosine distance of every candidate, under RLS. */
async function hydrate(sql: ServerSql, ids: readonly string[], qv: ServerSearchRequest['queryVector'] | undefined, projects: readonly string[]): Promise<Map<string, HydratedRow>> {
  if (ids.length === 0) return new Map();
  const d = qv?.vector.length ?? 0;
  const distance = qv
    ? `CASE WHEN m.model_id = ${sqlString(qv.modelId)} AND m.dimensions = ${d} AND m.embedding IS NOT NULL THEN (m.embedding::vector(${d})) <=> $3::vector(${d}) END`
    : 'NULL::float8';
  const r = await sql.query<HydratedRow>(
    `SELECT m.id, m.content, m.project, m.type, m.created_at, m.author, m.author = current_user AS mine, ${distance} AS distance
       FROM ${SERVER_SCHEMA}.memories m WHERE m.id = ANY($1::text[]) AND NOT m.deleted AND m.project = ANY($2::text[])`,
    qv ? [ids, projects, vectorLiteral(qv.vector)] : [ids, projects]);
  return new Map(r.rows.map((x) => [x.id, { ...x, distance: x.distance === null ? null : Number(x.distance) }]));
}

/** Runs the hybrid search on a connection logged in as the member (RLS applies). */
export async function searchTeamServer(sql: ServerSql, req: ServerSearchRequest, cfg: SearchConfig): Promise<ServerSearchResult> {
  checkRequest(req);
  const features = await serverFeatures(sql);
  if (!features.lexical) {
    throw new MemoryError('E_TEAM_SERVER', 'The team server has no server-side search yet: an administrator runs `agent-memory team init` to add it (docs/team.md).');
  }
  const notes: string[] = [];
  const limit = Math.max(1, Math.min(500, req.limit ?? cfg.topK));
  const candidates = Math.max(limit, cfg.topK) * cfg.lexical.candidateFactor;
  const vectorState: VectorArmState = !features.vector ? 'server-lacks-pgvector' : req.queryVector ? 'used' : 'no-query-vector';
  if (vectorState === 'server-lacks-pgvector') notes.push(NO_PGVECTOR_NOTE);
  if (vectorState === 'no-query-vector') notes.push('No query vector (no embedding model): server-side search is lexical only.');
  const qv = vectorState === 'used' ? req.queryVector : undefined;

  const tsTerms = cfg.lexical.enabled ? await serverTerms(sql, queryTerms(req.query, cfg.lexical.maxTerms)) : [];
  const lex = await lexicalArm(sql, tsTerms, req.projects, candidates);
  const vec = qv ? await vectorArm(sql, qv, req.projects, candidates, features.pgvector) : [];
  if (qv && vec.length === 0) notes.push(`No shared memory on the server has a vector of model "${qv.modelId}" (${qv.vector.length} dimensions): lexical only.`);

  const need = requiredHits(tsTerms.length, cfg.lexical.majorityUpTo, cfg.lexical.longQueryMinHits);
  const lexKept = lex.filter((x) => x.hits >= need);
  const rankNorm = normaliseBm25(lexKept.map((x) => x.rank));
  const lexical = new Map(lexKept.map((x, i) => [x.id, { score: probedLexicalScore(x.hits, tsTerms.length, rankNorm[i] as number, cfg.lexical.hitWeight), hits: x.hits }]));
  const vecIds = new Set(vec.map((x) => x.id));
  const ids = [...new Set([...lexical.keys(), ...vecIds])];
  const rows = await hydrate(sql, ids, qv, req.projects);

  const cosine = (row: HydratedRow): number | undefined => (row.distance === null || !Number.isFinite(row.distance) ? undefined : 1 - row.distance);
  const bestCosine = Math.max(0, ...vec.map((x) => 1 - x.distance).filter((c) => Number.isFinite(c)));
  const semanticScale = cfg.vector.normalise && bestCosine > 0 ? 1 / bestCosine : 1;
  // As local recall: without a vector arm the lexical channel has the full weight, without lexical terms the semantic one.
  const vectorRan = qv !== undefined && vec.length > 0;
  const shaping = { alpha: !vectorRan ? 0 : tsTerms.length > 0 ? cfg.alpha : 1, hints: { ...cfg.hints, enabled: false }, traversal: { ...cfg.traversal, enabled: false } };
  const hits: ServerSearchHit[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) continue;
    const lx = lexical.get(id);
    const cos = cosine(row);
    const channels: ChannelScores = { lexical: lx?.score ?? 0, semantic: vectorRan && cos !== undefined ? Math.max(0, cos) : 0, hint: 0, traversal: 0 };
    const { score } = shapeScore(channels, shaping, semanticScale);
    if (score < cfg.minScore) continue;
    const sources: ('lexical' | 'vector')[] = [];
    if (lx) sources.push('lexical');
    if (vecIds.has(id)) sources.push('vector');
    hits.push({
      id, content: row.content, project: row.project, type: row.type, createdAt: row.created_at, author: row.author, mine: row.mine === true,
      score, channels: { lexical: channels.lexical, semantic: channels.semantic }, sources,
      ...(lx ? { termsHit: lx.hits, termCount: tsTerms.length } : {}),
    });
  }
  hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { hits: hits.slice(0, limit), vector: vectorState, lexicalTerms: tsTerms.length, notes };
}
