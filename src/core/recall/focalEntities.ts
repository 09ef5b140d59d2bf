/**
 * Focal entity resolution (docs/recall-design.md "focal entities"). Pinned entities are included
 * unless includePinned is false (a union, not a fallback); with an agent id only that agent's
 * entities count; the rest comes from the first source that resolves: checkpoint ids >
 * project path (last two path parts, project entities, by mentions, at most 5) > query tokens
 * (canonical_name LIKE, by mentions, at most 20). With nothing resolved and a session key, the
 * source is "session_key". Any exception gives an empty result.
 */
import type { SqlReader } from '../store/storeTypes';
import { entitiesForTokens } from './graphBoost';
import { graphTokens } from './queryTerms';

export type FocalSource = 'project' | 'checkpoint' | 'query' | 'session_key';

export interface FocalEntityResult {
  readonly entityIds: string[];
  readonly entityNames: string[];
  readonly pinnedEntityIds: string[];
  readonly source: FocalSource;
}

export interface FocalOptions {
  readonly project?: string;
  readonly sessionKey?: string;
  readonly checkpointEntityIds?: readonly string[];
  readonly queryTokens?: readonly string[];
  /** Default true; recall passes the search.pinsFocal setting (traversal.includePinned). */
  readonly includePinned?: boolean;
  /** Only this agent's entities (pinned, checkpoint, project, query); undefined = every agent. */
  readonly agentId?: string;
}

interface EntityRow { id: string; name: string }

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** Project path → up to two normalised tokens (last two parts, [a-z0-9_-], length ≥ 2). */
export function projectTokens(project: string): string[] {
  const parts = project.split(/[/\\]+/).map((p) => p.toLowerCase().replace(/[^a-z0-9_-]/g, '')).filter((p) => p.length >= 2);
  return parts.slice(-2);
}

export function resolveFocalEntities(db: SqlReader, opts: FocalOptions): FocalEntityResult {
  const fallbackSource: FocalSource = opts.project !== undefined ? 'project' : 'query';
  try {
    const agent = opts.agentId;
    const agentSql = agent === undefined ? '' : ' AND agent_id = ?';
    const agentParam = agent === undefined ? [] : [agent];
    const pinned = opts.includePinned === false ? [] : db.all<EntityRow>(
      `SELECT id, name FROM entities WHERE pinned = 1 AND status = 'active'${agentSql} ORDER BY pinned_at DESC, updated_at DESC`, agentParam);
    let resolved: EntityRow[] = [];
    let source: FocalSource | undefined;
    if (opts.checkpointEntityIds && opts.checkpointEntityIds.length > 0) {
      const ids = [...opts.checkpointEntityIds];
      resolved = db.all<EntityRow>(`SELECT id, name FROM entities WHERE id IN (${ids.map(() => '?').join(',')})${agentSql}`, [...ids, ...agentParam]);
      if (resolved.length > 0) source = 'checkpoint';
    }
    if (!source && opts.project !== undefined) {
      const toks = projectTokens(opts.project);
      if (toks.length > 0) {
        const where = toks.map(() => "(canonical_name LIKE ? ESCAPE '\\' OR lower(name) LIKE ? ESCAPE '\\')").join(' OR ');
        resolved = db.all<EntityRow>(
          `SELECT id, name FROM entities WHERE entity_type = 'project' AND status = 'active'${agentSql} AND (${where}) ORDER BY mentions DESC, id LIMIT 5`,
          [...agentParam, ...toks.flatMap((t) => [`%${likeEscape(t)}%`, `%${likeEscape(t)}%`])]);
        if (resolved.length > 0) source = 'project';
      }
    }
    if (!source && opts.queryTokens && opts.queryTokens.length > 0) {
      const toks = opts.queryTokens.flatMap((q) => graphTokens(q));
      const ids = entitiesForTokens(db, toks, 20, agent);
      if (ids.length > 0) {
        const names = new Map(db.all<EntityRow>(`SELECT id, name FROM entities WHERE id IN (${ids.map(() => '?').join(',')})`, ids).map((e) => [e.id, e.name]));
        resolved = ids.map((id) => ({ id, name: names.get(id) ?? id }));
        source = 'query';
      }
    }
    if (!source && opts.sessionKey !== undefined) source = 'session_key';
    const ids: string[] = [], names: string[] = [];
    for (const e of [...pinned, ...resolved]) if (!ids.includes(e.id)) { ids.push(e.id); names.push(e.name); }
    return { entityIds: ids, entityNames: names, pinnedEntityIds: pinned.map((p) => p.id), source: source ?? fallbackSource };
  } catch {
    return { entityIds: [], entityNames: [], pinnedEntityIds: [], source: fallbackSource };
  }
}
