/**
 * Import of the MCP reference memory server's file (`memory.jsonl`: one `{"type":"entity",...}` or
 * `{"type":"relation",...}` object a line; the older `memory.json` holds the same lines, or one
 * `{entities, relations}` object) into entities, relations and observation memories, through the
 * same mapping as the server's tools (src/core/mcp/referenceGraph.ts). Idempotent: existing
 * entities get only their missing observations, existing relations are skipped.
 */
import { MemoryError } from '../errors';
import { addObservations, createEntities, createRelations, REF_LIMITS } from '../mcp/referenceGraph';
import type { McpEngine, RefEntity, RefRelation } from '../mcp/referenceGraph';
import { canonicalName } from '../graph/keys';

export interface ReferenceMemoryFile {
  readonly entities: RefEntity[];
  readonly relations: RefRelation[];
  /** Lines that were neither a valid entity nor a valid relation (the reference server skips them too). */
  readonly skipped: number;
}

export interface ReferenceImportReport {
  readonly format: 'mcp-memory';
  readonly entities: number;
  readonly entitiesCreated: number;
  readonly observationsAdded: number;
  readonly relationsCreated: number;
  readonly skipped: number;
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

function entityOf(v: Record<string, unknown>): RefEntity | undefined {
  if (!isString(v.name) || typeof v.entityType !== 'string') return undefined;
  const obs = Array.isArray(v.observations) ? v.observations.filter(isString) : [];
  return { name: v.name, entityType: v.entityType.trim() || 'unknown', observations: obs };
}

function relationOf(v: Record<string, unknown>): RefRelation | undefined {
  return isString(v.from) && isString(v.to) && isString(v.relationType) ? { from: v.from, to: v.to, relationType: v.relationType } : undefined;
}

/** Whether a text looks like the reference server's file (its first record is a typed entity or relation, or a {entities, relations} object). */
export function looksLikeReferenceMemory(text: string): boolean {
  const t = text.trimStart();
  const first = t.split('\n', 1)[0] ?? '';
  try {
    const v = JSON.parse(first) as Record<string, unknown>;
    if (v && (v.type === 'entity' || v.type === 'relation')) return true;
  } catch { /* not one object a line */ }
  if (t.startsWith('{')) {
    try { const v = JSON.parse(t) as Record<string, unknown>; return Array.isArray(v.entities) && Array.isArray(v.relations ?? []); } catch { return false; }
  }
  return false;
}

/** Parses the file; bad lines are counted, never fatal (as in the reference server). */
export function parseReferenceMemory(text: string): ReferenceMemoryFile {
  const entities: RefEntity[] = [], relations: RefRelation[] = [];
  let skipped = 0;
  const trimmed = text.trim();
  try {
    const whole = JSON.parse(trimmed) as Record<string, unknown>;
    if (whole && Array.isArray(whole.entities)) {
      for (const e of whole.entities) { const x = typeof e === 'object' && e ? entityOf(e as Record<string, unknown>) : undefined; if (x) entities.push(x); else skipped++; }
      for (const r of Array.isArray(whole.relations) ? whole.relations : []) { const x = typeof r === 'object' && r ? relationOf(r as Record<string, unknown>) : undefined; if (x) relations.push(x); else skipped++; }
      return { entities, relations, skipped };
    }
  } catch { /* JSON lines */ }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let v: unknown;
    try { v = JSON.parse(line); } catch { skipped++; continue; }
    const rec = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
    const e = rec?.type === 'entity' ? entityOf(rec) : undefined;
    const r = rec?.type === 'relation' ? relationOf(rec) : undefined;
    if (e) entities.push(e); else if (r) relations.push(r); else skipped++;
  }
  return { entities, relations, skipped };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Imports a parsed file in batches; returns what changed (a second import of the same file changes nothing). */
export async function importReferenceMemory(engine: McpEngine, file: ReferenceMemoryFile, options: { project?: string } = {}): Promise<ReferenceImportReport> {
  if (file.entities.length === 0 && file.relations.length === 0) throw new MemoryError('E_INVALID_INPUT', 'The file holds no entity or relation of the MCP memory server format.');
  // Entities of the same name (case-insensitive, as our names are) are one entity: observations are merged.
  const byName = new Map<string, { name: string; entityType: string; observations: string[] }>();
  for (const e of file.entities) {
    const k = canonicalName(e.name);
    const seen = byName.get(k);
    if (seen) seen.observations.push(...e.observations.filter((o) => !seen.observations.includes(o)));
    else byName.set(k, { name: e.name, entityType: e.entityType, observations: [...e.observations] });
  }
  let entitiesCreated = 0, observationsAdded = 0, relationsCreated = 0, tooLong = 0;
  // An observation longer than one memory would be chunked apart from its subject: those are skipped and counted.
  const max = engine.rememberDeps().chunking.maxContentChars;
  for (const e of byName.values()) {
    const fits = e.observations.filter((o) => e.name.length + 2 + o.trim().length <= max);
    tooLong += e.observations.length - fits.length;
    e.observations = fits;
  }
  for (const batch of chunks([...byName.values()], 50)) {
    const created = await createEntities(engine, batch.map((e) => ({ ...e, observations: [] })), options.project);
    entitiesCreated += created.length;
    const groups = batch.flatMap((e) => chunks(e.observations, REF_LIMITS.observationsPerEntity).map((contents) => ({ entityName: e.name, contents })));
    for (const g of chunks(groups, 50)) {
      for (const r of await addObservations(engine, g, options.project)) observationsAdded += r.addedObservations.length;
    }
  }
  const known = new Set(byName.keys());
  const relations = file.relations.filter((r) => known.has(canonicalName(r.from)) && known.has(canonicalName(r.to)) && canonicalName(r.from) !== canonicalName(r.to));
  for (const batch of chunks(relations, REF_LIMITS.items)) relationsCreated += (await createRelations(engine, batch)).length;
  return { format: 'mcp-memory', entities: byName.size, entitiesCreated, observationsAdded, relationsCreated, skipped: file.skipped + tooLong + (file.relations.length - relations.length) };
}
