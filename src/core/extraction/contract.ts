import { EDGE_KINDS, ENTITY_TYPES, FACT_TYPES } from '../config/extractionConfig';
import type { EdgeKind, EntityType, ExtractionConfig, FactType } from '../config/extractionConfig';

/**
 * The extraction contract. Enforced by code, not by a schema library:
 * TypeBox's Value.Check skips `enum`, so every enum here is checked by hand.
 * Every block is optional — a turn may legitimately declare nothing.
 */
export interface ExtractedEntity {
  readonly name: string;
  readonly type: EntityType;
  readonly description: string;
}

export interface ExtractedRelation {
  /** Must name an entity declared in the same payload. */
  readonly from: string;
  readonly to: string;
  readonly type: EdgeKind;
  readonly instruction: string;
}

export interface ExtractedFact {
  /** The declared entity the fact is about (must name an entity of the same payload). */
  readonly entity: string;
  readonly type: FactType;
  readonly content: string;
  readonly aspect: string;
  readonly group_key: string | null;
  readonly claim_key: string | null;
  readonly importance: number;
  readonly confidence: number;
}

export interface ExtractionPayload {
  readonly entities?: readonly ExtractedEntity[];
  readonly relations?: readonly ExtractedRelation[];
  readonly facts?: readonly ExtractedFact[];
}

export interface ContractIssue {
  /** JSON-pointer-like path: `entities/2/type`. */
  readonly path: string;
  readonly message: string;
}

export interface ContractResult {
  /** True when the payload satisfied the contract as given. */
  readonly ok: boolean;
  readonly issues: readonly ContractIssue[];
  /** The valid part: invalid items dropped, relations and facts with undeclared names dropped. */
  readonly payload: ExtractionPayload;
}

const TOP_KEYS = new Set(['entities', 'relations', 'facts']);
const ENTITY_KEYS = new Set(['name', 'type', 'description']);
const RELATION_KEYS = new Set(['from', 'to', 'type', 'instruction']);
const FACT_KEYS = new Set(['entity', 'type', 'content', 'aspect', 'group_key', 'claim_key', 'importance', 'confidence']);

export const isEntityType = (v: unknown): v is EntityType => typeof v === 'string' && (ENTITY_TYPES as readonly string[]).includes(v);
export const isEdgeKind = (v: unknown): v is EdgeKind => typeof v === 'string' && (EDGE_KINDS as readonly string[]).includes(v);
export const isFactType = (v: unknown): v is FactType => typeof v === 'string' && (FACT_TYPES as readonly string[]).includes(v);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Names match across blocks case- and whitespace-insensitively. */
export const nameKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

function extraKeys(obj: Record<string, unknown>, allowed: Set<string>, path: string, issues: ContractIssue[]): boolean {
  const extra = Object.keys(obj).filter((k) => !allowed.has(k));
  for (const k of extra) issues.push({ path: `${path}/${k}`, message: 'property not allowed' });
  return extra.length === 0;
}

function str(obj: Record<string, unknown>, key: string, min: number, max: number, path: string, issues: ContractIssue[]): string | undefined {
  const v = obj[key];
  if (typeof v !== 'string') { issues.push({ path: `${path}/${key}`, message: 'must be a string' }); return undefined; }
  const t = v.trim();
  if (t.length < min || t.length > max) { issues.push({ path: `${path}/${key}`, message: `length must be ${min}..${max}` }); return undefined; }
  return t;
}

function unit(obj: Record<string, unknown>, key: string, dflt: number, path: string, issues: ContractIssue[]): number | undefined {
  const v = obj[key];
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) { issues.push({ path: `${path}/${key}`, message: 'must be a number from 0 to 1' }); return undefined; }
  return v;
}

function optKey(obj: Record<string, unknown>, key: string, path: string, issues: ContractIssue[]): string | null | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > 200) { issues.push({ path: `${path}/${key}`, message: 'must be a string up to 200 characters or null' }); return undefined; }
  return v.trim() || null;
}

function arrayBlock(raw: Record<string, unknown>, key: string, max: number, issues: ContractIssue[]): unknown[] {
  const v = raw[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) { issues.push({ path: key, message: 'must be an array' }); return []; }
  if (v.length > max) issues.push({ path: key, message: `at most ${max} items; the rest are dropped` });
  return v.slice(0, max);
}

/** Validates an untrusted value against the contract and returns its valid part with every issue. */
export function validateExtractionPayload(raw: unknown, cfg: ExtractionConfig): ContractResult {
  const issues: ContractIssue[] = [];
  if (!isRecord(raw)) return { ok: false, issues: [{ path: '', message: 'payload must be a JSON object' }], payload: {} };
  extraKeys(raw, TOP_KEYS, '', issues);

  const entities: ExtractedEntity[] = [];
  const declared = new Set<string>();
  arrayBlock(raw, 'entities', cfg.maxEntities, issues).forEach((item, i) => {
    const path = `entities/${i}`;
    if (!isRecord(item)) { issues.push({ path, message: 'must be an object' }); return; }
    const before = issues.length;
    extraKeys(item, ENTITY_KEYS, path, issues);
    const name = str(item, 'name', 1, cfg.maxEntityNameChars, path, issues);
    if (!isEntityType(item.type)) issues.push({ path: `${path}/type`, message: `must be one of ${ENTITY_TYPES.join('|')}` });
    const description = item.description === undefined ? '' : str(item, 'description', 0, cfg.maxContentChars, path, issues);
    if (issues.length > before || name === undefined || description === undefined || !isEntityType(item.type)) return;
    if (declared.has(nameKey(name))) return;
    declared.add(nameKey(name));
    entities.push({ name, type: item.type, description });
  });

  const relations: ExtractedRelation[] = [];
  arrayBlock(raw, 'relations', cfg.maxRelations, issues).forEach((item, i) => {
    const path = `relations/${i}`;
    if (!isRecord(item)) { issues.push({ path, message: 'must be an object' }); return; }
    const before = issues.length;
    extraKeys(item, RELATION_KEYS, path, issues);
    const from = str(item, 'from', 1, cfg.maxEntityNameChars, path, issues);
    const to = str(item, 'to', 1, cfg.maxEntityNameChars, path, issues);
    if (!isEdgeKind(item.type)) issues.push({ path: `${path}/type`, message: `must be one of ${EDGE_KINDS.join('|')}` });
    const instruction = item.instruction === undefined ? '' : str(item, 'instruction', 0, cfg.maxContentChars, path, issues);
    if (from !== undefined && !declared.has(nameKey(from))) issues.push({ path: `${path}/from`, message: 'must name an entity declared in this payload' });
    if (to !== undefined && !declared.has(nameKey(to))) issues.push({ path: `${path}/to`, message: 'must name an entity declared in this payload' });
    if (issues.length > before || from === undefined || to === undefined || instruction === undefined || !isEdgeKind(item.type)) return;
    relations.push({ from, to, type: item.type, instruction });
  });

  const facts: ExtractedFact[] = [];
  arrayBlock(raw, 'facts', cfg.maxFacts, issues).forEach((item, i) => {
    const path = `facts/${i}`;
    if (!isRecord(item)) { issues.push({ path, message: 'must be an object' }); return; }
    const before = issues.length;
    extraKeys(item, FACT_KEYS, path, issues);
    const entity = str(item, 'entity', 1, cfg.maxEntityNameChars, path, issues);
    if (!isFactType(item.type)) issues.push({ path: `${path}/type`, message: `must be one of ${FACT_TYPES.join('|')}` });
    const content = str(item, 'content', 1, cfg.maxContentChars, path, issues);
    const aspect = str(item, 'aspect', 1, 120, path, issues);
    const group = optKey(item, 'group_key', path, issues);
    const claim = optKey(item, 'claim_key', path, issues);
    const importance = unit(item, 'importance', 0.5, path, issues);
    const confidence = unit(item, 'confidence', 0.7, path, issues);
    if (entity !== undefined && !declared.has(nameKey(entity))) issues.push({ path: `${path}/entity`, message: 'must name an entity declared in this payload' });
    if (issues.length > before || entity === undefined || content === undefined || aspect === undefined || group === undefined
      || claim === undefined || importance === undefined || confidence === undefined || !isFactType(item.type)) return;
    facts.push({ entity, type: item.type, content, aspect, group_key: group, claim_key: claim, importance, confidence });
  });

  const payload: ExtractionPayload = {
    ...(entities.length ? { entities } : {}),
    ...(relations.length ? { relations } : {}),
    ...(facts.length ? { facts } : {}),
  };
  return { ok: issues.length === 0, issues, payload };
}

/** True when the payload declares nothing. */
export const isEmptyPayload = (p: ExtractionPayload): boolean =>
  !(p.entities?.length) && !(p.relations?.length) && !(p.facts?.length);
