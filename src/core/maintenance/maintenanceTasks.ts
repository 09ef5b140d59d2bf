import type { ContradictionConfig } from '../config/extractionConfig';
import type { FeedbackConfig } from '../config/feedbackConfig';
import type { GraphConfig } from '../config/graphConfig';
import type { HintsConfig } from '../config/hintsConfig';
import type { JobsConfig } from '../config/jobsConfig';
import type { MaintenanceConfig } from '../config/maintenanceConfig';
import { aspectAgents } from '../feedback/aspectFeedback';
import { runScheduledDecay } from '../feedback/sessionFeedback';
import { aliasResolverFor } from '../extraction/entityAliases';
import { applyGraphOp, graphContext } from '../graph/graphApply';
import { findDuplicateEntities } from '../graph/mergeEntities';
import { propagateMemoryStatus } from '../graph/propagateMemoryStatus';
import { enqueueHintsJob, memoriesWithoutHints } from '../hints/hintsJobs';
import type { FeedbackTelemetry } from '../feedback/feedbackTelemetry';
import type { MaintenanceTask, StepResult } from './maintenanceTypes';
import { recordMaintenanceChange, snapshotMerge } from './maintenanceUndo';
import { deadJobsTask, integrityCheckTask, rebuildFtsTask } from './storeTasks';

/**
 * The maintenance registry. Each task wires the owning module's function:
 * aspect decay (feedback), memory-status propagation (graph), hints backfill (hints), dead jobs
 * (jobs), drifted FTS indexes and the integrity check (store).
 */
export interface MaintenanceDeps {
  readonly feedback: FeedbackConfig;
  readonly hints: HintsConfig;
  readonly jobs: JobsConfig;
  readonly graph: GraphConfig;
  readonly contradiction: ContradictionConfig;
  readonly maintenance: MaintenanceConfig;
  readonly graphEnabled: boolean;
  readonly telemetry: FeedbackTelemetry;
  readonly newId: () => string;
  /** The user's entity aliases (alias → canonical name) on top of the built-in table. */
  readonly aliases?: Readonly<Record<string, string>>;
}

function graphAgents(db: { all<T extends object>(sql: string): T[] }): string[] {
  const agents = new Set(aspectAgents(db));
  for (const r of db.all<{ agent_id: string }>('SELECT DISTINCT agent_id FROM entity_attributes')) agents.add(r.agent_id);
  return [...agents].sort();
}

/** Aspect decay for every agent with aspects (the daily half of "every N sessions or daily"). */
export function decayAspectsTask(deps: MaintenanceDeps): MaintenanceTask {
  return {
    id: 'decay-aspects',
    title: 'Decay stale aspect weights',
    async step(ctx): Promise<StepResult> {
      if (!deps.graphEnabled || !deps.feedback.enabled || !deps.feedback.decayEnabled) return { cursor: null, processed: 0, summary: { skipped: 'feedback, decay or the graph is disabled' } };
      const nowMs = ctx.clock.now();
      const decayed = await ctx.store.write('maintenance:decay', (db) => graphAgents(db).reduce((n, agent) => n + runScheduledDecay(db, agent, deps.feedback, nowMs), 0));
      deps.telemetry.record({ feedbackDecayedAspects: decayed }, new Date(nowMs).toISOString());
      return { cursor: null, processed: decayed, summary: { aspectsDecayed: decayed } };
    },
  };
}

/** Attributes whose memory was deleted or is missing become superseded (graph/propagateMemoryStatus). */
export function propagateStatusTask(deps: MaintenanceDeps): MaintenanceTask {
  return {
    id: 'propagate-memory-status',
    title: 'Propagate memory status to graph attributes',
    async step(ctx): Promise<StepResult> {
      if (!deps.graphEnabled) return { cursor: null, processed: 0, summary: { skipped: 'the graph is disabled' } };
      const nowMs = ctx.clock.now();
      const nowIso = new Date(nowMs).toISOString();
      const { n, named } = await ctx.store.write('maintenance:propagate', (db) => {
        // Named in the report before they change: which entity's fact, and why (docs/maintenance.md).
        const named = db.all<{ name: string | null; content: string; deleted: number | null }>(
          `SELECT e.name, a.content, m.is_deleted AS deleted FROM entity_attributes a LEFT JOIN entities e ON e.id = a.entity_id LEFT JOIN memories m ON m.id = a.memory_id
            WHERE a.status = 'active' AND a.memory_id IS NOT NULL AND a.entity_id IS NOT NULL AND a.memory_id NOT IN (SELECT id FROM memories WHERE is_deleted = 0) LIMIT ?`, [REPORT_LINES_MAX])
          .map((r) => `${r.name ? `"${r.name}": ` : ''}"${oneLine(r.content)}" superseded: its memory was ${r.deleted === 1 ? 'deleted (wrong or outdated)' : 'forgotten'}`);
        const n = graphAgents(db).reduce((sum, agentId) => sum + propagateMemoryStatus(db, {
          actor: 'maintenance', reason: 'propagate memory status', nowIso, newId: deps.newId, agentId, config: deps.graph, contradiction: deps.contradiction,
        }), 0);
        return { n, named };
      });
      deps.telemetry.record({ feedbackPropagatedAttributes: n }, nowIso);
      return { cursor: null, processed: n, summary: { attributesSuperseded: n, ...(named.length ? { supersededFacts: named.join('\n') } : {}) } };
    },
  };
}

/** Enqueues hints jobs for live memories that have none (batched, resumable by memory id). */
export function backfillHintsTask(deps: MaintenanceDeps): MaintenanceTask {
  return {
    id: 'backfill-hints',
    title: 'Backfill prospective hints',
    async step(ctx, cursor): Promise<StepResult> {
      if (!deps.hints.enabled) return { cursor: null, processed: 0, summary: { skipped: 'prospective hints are disabled' } };
      const ids = ctx.store.read((db) => memoriesWithoutHints(db, deps.maintenance.batchSize, cursor ?? ''));
      if (!ids.length) return { cursor: null, processed: 0, summary: { jobsEnqueued: 0 } };
      const nowMs = ctx.clock.now();
      const n = await ctx.store.write('maintenance:hints', (db) => ids.reduce((sum, id) => {
        const agent = db.get<{ agent_id: string }>('SELECT agent_id FROM memories WHERE id = ?', [id])?.agent_id ?? 'default';
        return sum + (enqueueHintsJob(db, id, agent, nowMs, deps.newId, deps.jobs) ? 1 : 0);
      }, 0));
      return { cursor: ids.length < deps.maintenance.batchSize ? null : (ids[ids.length - 1] as string), processed: ids.length, summary: { jobsEnqueued: n } };
    },
  };
}

const NO_ALIASES: Readonly<Record<string, string>> = {};

/**
 * Merges duplicate entities (same name after alias resolution and case/punctuation folding) through
 * the audited graph path, keeping mentions, relations, attributes and pins (graph/mergeEntities.ts).
 * One agent's duplicate groups per step; the cursor is the last agent done.
 */
export function mergeEntitiesTask(deps: MaintenanceDeps): MaintenanceTask {
  return {
    id: 'merge-entities',
    title: 'Merge duplicate entities (aliases, case and punctuation)',
    async step(ctx, cursor): Promise<StepResult> {
      if (!deps.graphEnabled) return { cursor: null, processed: 0, summary: { skipped: 'the graph is disabled' } };
      const aliases = aliasResolverFor(deps.aliases ?? NO_ALIASES);
      const agents = ctx.store.read((db) => db.all<{ agent_id: string }>('SELECT DISTINCT agent_id FROM entities ORDER BY agent_id').map((r) => r.agent_id));
      const agent = agents.find((a) => cursor === null || a > cursor);
      if (agent === undefined) return { cursor: null, processed: 0, summary: { entitiesMerged: 0 } };
      const merged = await ctx.store.write('maintenance:merge-entities', (db) => {
        const gctx = graphContext({ actor: 'maintenance', reason: 'merge duplicate entities', clock: ctx.clock, agentId: agent, config: deps.graph, contradiction: deps.contradiction, newId: deps.newId });
        const lines: string[] = [];
        const nameOf = (id: string): { name: string; type: string } | undefined => db.get<{ name: string; type: string }>('SELECT name, entity_type AS type FROM entities WHERE id = ?', [id]);
        for (const g of findDuplicateEntities(db, agent, aliases)) {
          const [keep, ...rest] = g.ids;
          for (const id of rest) {
            const from = nameOf(id);
            const into = nameOf(keep as string);
            const before = snapshotMerge(db, keep as string, id);
            applyGraphOp(db, gctx, { op: 'merge_entities', keepId: keep as string, mergeId: id, canonical: g.canonical });
            // Named in the report (docs/vscode.md, "Maintenance report"): which entity, into what, why;
            // and logged with what it changed, so the report can undo it (docs/maintenance.md).
            if (from && into) {
              const why = mergeReason(from, into);
              lines.push(`"${from.name}" (${from.type}) merged into "${g.canonical}" (${into.type}): ${why}`);
              recordMaintenanceChange(db, gctx, ctx.clock.now(), { runId: ctx.runId ?? null, task: 'merge-entities', kind: 'entity_merge', subject: from.name, target: g.canonical, why, undo: before });
            }
          }
        }
        return lines;
      });
      const next = agents[agents.indexOf(agent) + 1];
      return { cursor: next === undefined ? null : agent, processed: merged.length, summary: { entitiesMerged: merged.length, ...(merged.length ? { merged: merged.slice(0, REPORT_LINES_MAX).join('\n') + (merged.length > REPORT_LINES_MAX ? `\n… and ${merged.length - REPORT_LINES_MAX} more` : '') } : {}) } };
    },
  };
}

const oneLine = (s: string): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 90 ? `${flat.slice(0, 89)}…` : flat;
};

/** Lines one report section names at most; the rest are counted. */
export const REPORT_LINES_MAX = 50;

/** Why two entities were one: a module and its file, or the same name apart from case, punctuation, an alias or a kind word. */
function mergeReason(from: { name: string; type: string }, into: { name: string; type: string }): string {
  if (from.name.includes('/') !== into.name.includes('/') && [from.type, into.type].includes('file')) return 'a module and its file';
  if (from.name.toLowerCase() === into.name.toLowerCase()) return 'the same name in another case';
  const fold = (x: string): string => x.toLowerCase().replace(/[\s._-]+/g, '');
  if (fold(from.name) !== fold(into.name) && fold(from.name).startsWith(fold(into.name))) return `the same name with a kind word ("${from.name.slice(into.name.length).replace(/^[\s._-]+/, '')}")`;
  return fold(from.name) === fold(into.name) ? 'the same name apart from punctuation' : 'an alias of the same name';
}

/** Every task whose owning function exists, in run order. Hosts append tasks of other modules. */
export function createMaintenanceRegistry(deps: MaintenanceDeps, extra: readonly MaintenanceTask[] = []): MaintenanceTask[] {
  return [
    decayAspectsTask(deps), propagateStatusTask(deps), backfillHintsTask(deps), mergeEntitiesTask(deps),
    deadJobsTask(deps.maintenance.batchSize), rebuildFtsTask(), integrityCheckTask(), ...extra,
  ];
}
