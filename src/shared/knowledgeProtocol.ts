/**
 * The one message protocol between the extension host and the Knowledge panel, imported by both
 * sides. Every incoming message is decoded here before use: unknown types, missing or mistyped
 * fields and out-of-range values are rejected (with the path of the first bad field), and
 * unknown extra fields are dropped.
 */
import { array, bool, int, nullable, num, object, oneOf, refine, runDecoder, str, tagged } from './decode';
import type { DecodeResult, Decoder } from './decode';
import type {
  AspectView, AttributeView, CapturedMemoryView, ConflictSideView, ConflictView, EntityDetail, MergedAwayView, EntityHealthView, EntitySummary, ExplainScore, FeedbackStats,
  FeedbackTelemetry, FocalEntityView, FocalResolution, HostMessage, KnowledgeCounts, KnowledgeStats,
  RecallExplain, RecallResultView, RelationView, TeamMarkView, WebviewMessage,
} from './knowledgeProtocolTypes';

/** Bounds of the protocol. Large enough for real stores, small enough to refuse garbage. */
export const PROTOCOL_LIMITS = {
  /** Ids are UUID-like; names and types are short labels. */
  idLength: 200,
  nameLength: 500,
  typeLength: 64,
  /** Memory and attribute contents (the store caps memories well below this). */
  contentLength: 20_000,
  noteLength: 2_000,
  searchLength: 200,
  recallQueryLength: 1_000,
  /** Rows in one page message; the webview asks for pages of KNOWLEDGE_PAGE_SIZE. */
  pageMax: 10_000,
  deltaMax: 10_000,
  /** A list total the panel still handles (virtualised). */
  totalMax: 10_000_000,
  typesMax: 500,
  aspectsMax: 2_000,
  attributesPerAspectMax: 5_000,
  relationsMax: 5_000,
  focalMax: 500,
  /** Captured memories in one Captured tab list. */
  capturesMax: 1_000,
  /** Recall's own bound on the render width (recallRequest.ts). */
  recallLimitMax: 50,
  explainItemsMax: 100,
  errorLength: 1_000,
  /** Conflicts and merged-away notices in one message. */
  conflictsMax: 500,
  requestIdMax: Number.MAX_SAFE_INTEGER,
  countMax: Number.MAX_SAFE_INTEGER,
} as const;

const L = PROTOCOL_LIMITS;
const id = str(1, L.idLength);
const count = int(0, L.countMax);
const unit = num(0, 1);
const isoish = nullable(str(1, 64));
const requestId = int(0, L.requestIdMax);

const health: Decoder<EntityHealthView> = object({
  comparisonCount: count,
  winRate: unit,
  avgMargin: num(-1, 1),
  trend: oneOf(['improving', 'stable', 'declining']),
});

export const entitySummaryDecoder: Decoder<EntitySummary> = object({
  id,
  name: str(1, L.nameLength),
  type: str(1, L.typeLength),
  pinned: bool,
  pinnedAt: isoish,
  mentions: count,
  aspects: count,
  attributes: count,
  constraints: count,
  relations: count,
  health: nullable(health),
});

/** A PostgreSQL role name is at most 63 bytes; the bound leaves room for any encoding of it. */
const team: Decoder<TeamMarkView | null> = nullable(object({ author: nullable(str(1, L.typeLength * 4)), mine: bool }));

const attribute: Decoder<AttributeView> = object({
  id,
  kind: oneOf(['attribute', 'constraint']),
  status: oneOf(['active', 'superseded', 'deleted']),
  importance: unit,
  content: str(0, L.contentLength),
  supersededBy: nullable(id),
  currentnessNote: nullable(str(1, L.noteLength)),
  observedAt: isoish,
  source: nullable(str(0, L.noteLength)),
  team,
});

const aspect: Decoder<AspectView> = object({
  id,
  name: str(1, L.nameLength),
  weight: unit,
  updatedAt: isoish,
  attributes: array(attribute, L.attributesPerAspectMax),
});

const relation: Decoder<RelationView> = object({
  id,
  direction: oneOf(['outgoing', 'incoming']),
  relationType: str(1, L.typeLength),
  otherId: id,
  otherName: str(1, L.nameLength),
  strength: num(0, 1_000),
  confidence: unit,
  mentions: count,
});

const detail: Decoder<EntityDetail> = refine(object({
  summary: entitySummaryDecoder,
  canonicalName: str(1, L.nameLength),
  description: nullable(str(0, L.contentLength)),
  updatedAt: isoish,
  aspects: array(aspect, L.aspectsMax),
  unassigned: array(attribute, L.attributesPerAspectMax),
  relations: array(relation, L.relationsMax),
}), (d) => d.aspects.every((a, i) => i === 0 || (d.aspects[i - 1] as AspectView).weight >= a.weight), 'aspects sorted by weight, heaviest first');

const counts: Decoder<KnowledgeCounts> = object({
  memories: count, entities: count, pinned: count, aspects: count, attributes: count, constraints: count, relations: count,
});

const feedback: Decoder<FeedbackStats> = object({
  aspectsUpdatedLast7Days: count,
  avgAspectWeight: nullable(unit),
  aspectsAtMax: count,
  aspectsAtMin: count,
});

const telemetry: Decoder<FeedbackTelemetry> = object({
  feedbackAspectsUpdated: count,
  feedbackFtsConfirmations: count,
  feedbackDecayedAspects: count,
  feedbackPropagatedAttributes: count,
  lastRunAt: isoish,
});

const stats: Decoder<KnowledgeStats> = object({ counts, feedback, telemetry: nullable(telemetry) });

const focalEntity: Decoder<FocalEntityView> = object({ id, name: str(1, L.nameLength), pinned: bool });

const focal: Decoder<FocalResolution> = object({
  source: str(1, L.typeLength),
  resolvedAt: isoish,
  entities: array(focalEntity, L.focalMax),
});

const score: Decoder<ExplainScore> = object({ name: str(1, L.typeLength), value: num(-1e6, 1e6), op: oneOf(['score', 'add', 'multiply']) });

const explain: Decoder<RecallExplain> = object({
  channels: array(score, L.explainItemsMax),
  boosts: array(score, L.explainItemsMax),
  penalties: array(score, L.explainItemsMax),
  notes: array(str(1, L.noteLength), L.explainItemsMax),
  lines: array(str(1, L.noteLength), L.explainItemsMax),
});

export const recallResultDecoder: Decoder<RecallResultView> = object({
  id,
  content: str(0, L.contentLength),
  score: num(-1e6, 1e6),
  relevance: num(0, 1),
  memoryType: str(1, L.typeLength),
  createdAt: isoish,
  stale: nullable(object({ status: oneOf(['superseded', 'partly-superseded']), replacement: nullable(str(1, L.contentLength)) })),
  explain: nullable(explain),
  team,
});

export const capturedMemoryDecoder: Decoder<CapturedMemoryView> = object({
  id,
  content: str(0, L.contentLength),
  harness: str(1, L.typeLength),
  harnessLabel: str(1, L.typeLength),
  sessionId: str(0, L.nameLength),
  turnKey: str(0, L.nameLength),
  capturedAt: str(1, 64),
  project: nullable(str(1, L.nameLength)),
  status: oneOf(['active', 'retired', 'superseded']),
});

const captureAction = oneOf(['forget', 'markWrong']);
const conflictSide: Decoder<ConflictSideView> = object({ id, content: str(0, L.contentLength), createdAt: str(1, 64) });
const conflictView: Decoder<ConflictView> = object({
  id, older: conflictSide, newer: conflictSide, reason: str(1, L.typeLength), current: oneOf(['newer', 'older', 'both']),
});
const mergedAway: Decoder<MergedAwayView> = object({ id, name: str(1, L.nameLength), intoId: id, intoName: str(1, L.nameLength), at: str(1, 64) });
const conflictChoice = oneOf(['keep-newer', 'keep-older', 'both-true']);

const entityType = nullable(str(1, L.typeLength));
const search = str(0, L.searchLength);

export const hostMessageDecoder: Decoder<HostMessage> = tagged<HostMessage>({
  page: refine(object({
    type: oneOf(['page']),
    requestId,
    query: search,
    entityType,
    offset: int(0, L.totalMax),
    total: int(0, L.totalMax),
    reset: bool,
    entities: array(entitySummaryDecoder, L.pageMax),
    types: array(str(1, L.typeLength), L.typesMax),
  }), (m) => m.offset + m.entities.length <= m.total, 'offset + entities.length <= total'),
  delta: object({
    type: oneOf(['delta']),
    total: int(0, L.totalMax),
    upserts: array(entitySummaryDecoder, L.deltaMax),
    removed: array(id, L.deltaMax),
  }),
  detail: refine(object({ type: oneOf(['detail']), id, detail: nullable(detail) }), (m) => m.detail === null || m.detail.summary.id === m.id, 'detail.summary.id equal to id'),
  stats: object({ type: oneOf(['stats']), stats }),
  focal: object({ type: oneOf(['focal']), focal: nullable(focal) }),
  recallResult: object({
    type: oneOf(['recallResult']),
    requestId,
    query: str(0, L.recallQueryLength),
    tookMs: num(0, 1e9),
    results: array(recallResultDecoder, L.recallLimitMax),
  }),
  select: object({ type: oneOf(['select']), id }),
  explainRecall: object({
    type: oneOf(['explainRecall']),
    query: str(0, L.recallQueryLength),
    focusId: id,
    tookMs: num(0, 1e9),
    results: array(recallResultDecoder, L.recallLimitMax),
  }),
  error: object({
    type: oneOf(['error']),
    scope: oneOf(['list', 'detail', 'pin', 'recall', 'stats', 'focal', 'action', 'captures']),
    message: str(1, L.errorLength),
  }),
  captures: refine(object({
    type: oneOf(['captures']),
    captures: array(capturedMemoryDecoder, L.capturesMax),
    capturedToday: count,
    limit: int(1, L.capturesMax),
  }), (m) => m.captures.length <= m.limit, 'captures.length <= limit'),
  captureDone: object({ type: oneOf(['captureDone']), id, action: captureAction, message: str(1, L.errorLength) }),
  conflicts: object({ type: oneOf(['conflicts']), conflicts: array(conflictView, L.conflictsMax), notice: nullable(str(1, L.noteLength)) }),
  mergedAway: object({ type: oneOf(['mergedAway']), items: array(mergedAway, L.conflictsMax) }),
});

export const webviewMessageDecoder: Decoder<WebviewMessage> = tagged<WebviewMessage>({
  ready: object({ type: oneOf(['ready']) }),
  refresh: object({ type: oneOf(['refresh']) }),
  search: object({ type: oneOf(['search']), query: search, entityType }),
  requestPage: object({ type: oneOf(['requestPage']), requestId, offset: int(0, L.totalMax), limit: int(1, L.pageMax) }),
  selectEntity: object({ type: oneOf(['selectEntity']), id }),
  setPinned: object({ type: oneOf(['setPinned']), id, pinned: bool }),
  recall: object({ type: oneOf(['recall']), requestId, query: refine(str(1, L.recallQueryLength), (q) => q.trim().length > 0, 'a non-blank query'), limit: int(1, L.recallLimitMax) }),
  openInTree: object({ type: oneOf(['openInTree']), id }),
  copy: object({ type: oneOf(['copy']), id, what: oneOf(['name', 'id', 'json']) }),
  showSection: object({ type: oneOf(['showSection']), section: oneOf(['entities', 'recall', 'overview', 'captured']) }),
  captureAction: object({ type: oneOf(['captureAction']), id, action: captureAction }),
  resolveConflict: object({ type: oneOf(['resolveConflict']), id, choice: conflictChoice }),
});

/** Decodes a message from the webview (host side), with the reason when it is malformed. */
export function decodeWebviewMessage(raw: unknown): DecodeResult<WebviewMessage> {
  return runDecoder(webviewMessageDecoder, raw);
}

/** Decodes a message from the host (webview side), with the reason when it is malformed. */
export function decodeHostMessage(raw: unknown): DecodeResult<HostMessage> {
  return runDecoder(hostMessageDecoder, raw);
}

/** Returns the message when it is a well-formed WebviewMessage, otherwise undefined. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  const r = decodeWebviewMessage(raw);
  return r.ok ? r.value : undefined;
}

/** Returns the message when it is a well-formed HostMessage, otherwise undefined. */
export function parseHostMessage(raw: unknown): HostMessage | undefined {
  const r = decodeHostMessage(raw);
  return r.ok ? r.value : undefined;
}
