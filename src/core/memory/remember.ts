import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { DEFAULT_CHUNKING_CONFIG } from '../config/ingestConfig';
import type { ChunkingConfig } from '../config/ingestConfig';
import { DEFAULT_JOBS_CONFIG } from '../config/jobsConfig';
import type { JobsConfig } from '../config/jobsConfig';
import { DEFAULT_REDACTION_CONFIG } from '../config/redactionConfig';
import type { RedactionConfig } from '../config/redactionConfig';
import { MemoryError } from '../errors';
import { applyGraphOp, graphContext } from '../graph/graphApply';
import { enqueueJob, JOB_TYPES } from '../jobs/jobQueue';
import type { MemoryStore, SqlReader, SqlWriter } from '../store/storeTypes';
import { chunkContent } from './chunking';
import { canonicalIso, contentHash, insertMemory, storageContent } from './memoryRecords';
import { redactSecrets } from './redaction';
import { assertStorableText } from './textValidation';

/**
 * remember(): the write path. Secrets are redacted first, so
 * nothing derived from a secret (text, hash, vector, prompt) is ever stored; then dedup by source
 * id, idempotency key and content hash, in that order; long content is chunked; new memories get
 * their embed / extract / hints jobs in the same transaction.
 */
export interface RememberInput {
  readonly content: string;
  readonly type?: string;
  readonly sourceId?: string;
  readonly sourceType?: string;
  readonly idempotencyKey?: string;
  /** ISO-8601; defaults to the clock's now. */
  readonly createdAt?: string;
  readonly sessionKey?: string;
  readonly project?: string;
  readonly scope?: string;
  readonly agentId?: string;
  readonly who?: string;
  readonly why?: string;
  readonly tags?: readonly string[];
  readonly importance?: number;
  readonly confidence?: number;
  readonly pinned?: boolean;
}

export interface RememberDeps {
  readonly clock: Clock;
  readonly redaction: RedactionConfig;
  readonly chunking: ChunkingConfig;
  readonly jobs: JobsConfig;
  /** Which background jobs a new memory gets. */
  readonly enqueue: { readonly embed: boolean; readonly extract: boolean; readonly hints: boolean };
  readonly newId?: () => string;
}

export interface RememberResult {
  /** The memory id (the first chunk's id when the content was chunked). */
  readonly id: string;
  /** True when an existing memory matched and nothing was written. */
  readonly duplicate: boolean;
  readonly dedupedBy: 'source_id' | 'idempotency_key' | 'content_hash' | null;
  /** Every chunk's id, in order (one entry when not chunked). */
  readonly chunkIds: readonly string[];
  /** Names of the redaction rules that fired. */
  readonly redacted: readonly string[];
}

export function defaultRememberDeps(clock: Clock, overrides: Partial<RememberDeps> = {}): RememberDeps {
  return {
    clock, redaction: DEFAULT_REDACTION_CONFIG, chunking: DEFAULT_CHUNKING_CONFIG, jobs: DEFAULT_JOBS_CONFIG,
    enqueue: { embed: true, extract: true, hints: false }, ...overrides,
  };
}

const LIVE = "is_deleted = 0 AND agent_id = ? AND COALESCE(project, '') = ? AND COALESCE(scope, '__NULL__') = ?";

function existingBy(db: SqlReader, column: 'source_id' | 'idempotency_key', values: readonly string[], input: RememberInput, extra = ''): string | undefined {
  const scope = [input.agentId ?? 'default', input.project ?? '', input.scope ?? '__NULL__'];
  for (const v of values) {
    const row = db.get<{ id: string }>(`SELECT id FROM memories WHERE ${column} = ? ${extra} AND ${LIVE} ORDER BY created_at, rowid LIMIT 1`,
      column === 'source_id' ? [v, input.sourceType ?? '', ...scope] : [v, ...scope]);
    if (row) return row.id;
  }
  return undefined;
}

const chunkKey = (key: string, i: number): string => `${key}:chunk:${i}`;

/** Fields besides content that are stored as text and may carry a pasted secret. */
const REDACTED_FIELDS = ['type', 'sourceId', 'sourceType', 'idempotencyKey', 'sessionKey', 'project', 'scope', 'agentId', 'who', 'why'] as const;

const TEXT_FIELDS = ['content', 'type', 'sourceId', 'sourceType', 'idempotencyKey', 'createdAt', 'sessionKey', 'project', 'scope', 'agentId', 'who', 'why'] as const;

/** Every text field must survive storage unchanged (textValidation.ts): no NUL, no lone surrogate. */
function assertStorableInput(input: RememberInput): void {
  for (const k of TEXT_FIELDS) {
    const v = input[k];
    if (typeof v === 'string') assertStorableText(v, k);
  }
  for (const t of input.tags ?? []) if (typeof t === 'string') assertStorableText(t, 'a tag');
}

/**
 * Every stored text field of the input, redacted (content is redacted separately, after
 * normalisation). Redaction is deterministic, so a source id or session key holding a secret
 * still dedups and matches against its own earlier, redacted copy.
 */
function redactFields(input: RememberInput, config: RedactionConfig): { input: RememberInput; rules: string[] } {
  const rules = new Set<string>();
  const red = (v: string): string => {
    const r = redactSecrets(v, config);
    for (const n of r.rules) rules.add(n);
    return r.text;
  };
  const out: Record<string, unknown> = { ...input };
  for (const k of REDACTED_FIELDS) {
    const v = input[k];
    if (typeof v === 'string') out[k] = red(v);
  }
  if (input.tags) out.tags = input.tags.map((t) => (typeof t === 'string' ? red(t) : t));
  return { input: out as unknown as RememberInput, rules: [...rules] };
}

/** The write path inside an open transaction (batch ingest calls this once per memory). */
export function rememberInTransaction(db: SqlWriter, given: RememberInput, deps: RememberDeps): RememberResult {
  assertStorableInput(given);
  const fields = redactFields(given, deps.redaction);
  const input = fields.input;
  const raw = storageContent(typeof input.content === 'string' ? input.content : '');
  if (!raw) throw new MemoryError('E_INVALID_INPUT', 'A memory needs some text.');
  const createdAt = input.createdAt === undefined ? isoFromMs(deps.clock.now()) : canonicalIso(input.createdAt);
  const redContent = redactSecrets(raw, deps.redaction);
  const content = redContent.text;
  const redactedRules = [...new Set([...redContent.rules, ...fields.rules])];
  const dup = (id: string, by: RememberResult['dedupedBy']): RememberResult => ({ id, duplicate: true, dedupedBy: by, chunkIds: [id], redacted: redactedRules });
  if (input.sourceId !== undefined) {
    const id = existingBy(db, 'source_id', [input.sourceId, chunkKey(input.sourceId, 0)], input, "AND COALESCE(source_type, '') = ?");
    if (id) return dup(id, 'source_id');
  }
  if (input.idempotencyKey !== undefined) {
    const id = existingBy(db, 'idempotency_key', [input.idempotencyKey, chunkKey(input.idempotencyKey, 0)], input);
    if (id) return dup(id, 'idempotency_key');
  }
  const scope = [contentHash(content), input.agentId ?? 'default', input.project ?? '', input.scope ?? '__NULL__'];
  const byHash = db.get<{ id: string }>(`SELECT id FROM memories WHERE content_hash = ? AND ${LIVE} LIMIT 1`, scope);
  if (byHash) return dup(byHash.id, 'content_hash');

  const newId = deps.newId ?? randomUUID;
  const chunks = chunkContent(content, deps.chunking);
  const ids: string[] = [];
  const extract = deps.enqueue.extract;
  chunks.forEach((chunk, i) => {
    const many = chunks.length > 1;
    const out = insertMemory(db, {
      content: chunk, id: newId(), type: input.type, importance: input.importance, confidence: input.confidence,
      sourceId: input.sourceId === undefined ? undefined : many ? chunkKey(input.sourceId, i) : input.sourceId,
      sourceType: input.sourceType, sessionKey: input.sessionKey, project: input.project, scope: input.scope, agentId: input.agentId,
      who: input.who, why: input.why, tags: input.tags, pinned: input.pinned, extractionStatus: extract ? 'pending' : 'none', createdAt,
    });
    ids.push(out.id);
    if (out.duplicate) return;
    if (input.idempotencyKey !== undefined) {
      db.run('UPDATE memories SET idempotency_key = ? WHERE id = ?', [many ? chunkKey(input.idempotencyKey, i) : input.idempotencyKey, out.id]);
    }
    const now = deps.clock.now();
    if (deps.enqueue.embed) enqueueJob(db, { type: JOB_TYPES.embed, memoryId: out.id }, now, newId, deps.jobs);
    if (extract) enqueueJob(db, { type: JOB_TYPES.extract, memoryId: out.id }, now, newId, deps.jobs);
    if (deps.enqueue.hints) enqueueJob(db, { type: JOB_TYPES.hints, memoryId: out.id }, now, newId, deps.jobs);
  });
  if (ids.length > 1) linkChunkGroup(db, deps, ids, input.agentId);
  return { id: ids[0] as string, duplicate: false, dedupedBy: null, chunkIds: ids, redacted: redactedRules };
}

/** Chunks share one chunk_group entity, each linked with mention_text 'chunk' and confidence 1. */
function linkChunkGroup(db: SqlWriter, deps: RememberDeps, ids: readonly string[], agentId: string | undefined): void {
  const ctx = graphContext({ actor: 'remember', reason: 'chunked memory', clock: deps.clock, agentId: agentId ?? 'default', newId: deps.newId ?? randomUUID });
  const name = `chunks of ${ids[0] as string}`;
  for (const memoryId of ids) applyGraphOp(db, ctx, { op: 'upsert_entity', name, type: 'chunk_group', memoryId, mentionText: 'chunk', confidence: 1 });
}

export function remember(store: MemoryStore, input: RememberInput, deps: RememberDeps): Promise<RememberResult> {
  return store.write('remember', (db) => rememberInTransaction(db, input, deps));
}
