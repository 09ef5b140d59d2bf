import type { ContradictionConfig } from '../config/extractionConfig';
import type { GraphConfig } from '../config/graphConfig';
import { randomUUID } from 'node:crypto';
import { recordProposals } from '../consolidation/conflictRecords';
import { findDuplicatesAndConflicts } from '../consolidation/duplicatesAndConflicts';
import type { Rng } from '../consolidation/cluster';
import type { LlmClient } from '../hostContext';
import type { Embedder } from '../models/embedder';
import { reembedStale } from '../models/reembed';
import { REPORT_LINES_MAX } from './maintenanceTasks';
import type { MaintenanceTask, StepResult } from './maintenanceTypes';

/**
 * Maintenance tasks owned by other modules, wired to their functions: re-embedding memories whose
 * vector is missing or from another model (models/reembed.ts), and the read-only duplicates and
 * conflicts scan (consolidation/duplicatesAndConflicts.ts). Both need the embedder.
 */
export function reembedTask(embedder: Embedder): MaintenanceTask {
  return {
    id: 'reembed-stale',
    title: 'Re-embed stale vectors',
    async step(ctx): Promise<StepResult> {
      // reembedStale works in durable batches: a cancelled run leaves the rest stale, and the next run picks them up
      const r = await reembedStale(ctx.store, embedder, { clock: ctx.clock, ...(ctx.signal ? { signal: ctx.signal } : {}) });
      return { cursor: null, processed: r.embedded, total: r.embedded + r.remaining, summary: { embedded: r.embedded, remaining: r.remaining, model: embedder.id } };
    },
  };
}

export function duplicatesTask(deps: { embedder: Embedder; llm: LlmClient | undefined; graph: GraphConfig; contradiction: ContradictionConfig; rng: Rng }): MaintenanceTask {
  return {
    id: 'find-duplicates-conflicts',
    title: 'Find duplicates and conflicts',
    async step(ctx): Promise<StepResult> {
      const r = await findDuplicatesAndConflicts({
        store: ctx.store, modelId: deps.embedder.id, dims: deps.embedder.dims, embedder: deps.embedder, llm: deps.llm, graph: deps.graph,
        contradiction: deps.contradiction, logger: ctx.logger, rng: deps.rng, ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      // Memory pairs are kept for a person to resolve (consolidation/conflictRecords.ts); pairs a person
      // already answered, and copies of two statements they said are both true, are left out.
      const nowIso = new Date(ctx.clock.now()).toISOString();
      const memoryPairs = r.conflicts.filter((c) => c.kind === 'memory');
      const open = new Set(await ctx.store.write('maintenance:conflicts', (db) => recordProposals(db, memoryPairs, nowIso, randomUUID)));
      const conflictList = r.conflicts.filter((c) => c.kind !== 'memory' || open.has(c));
      // Each proposal by what it says and when (docs/vscode.md, "Maintenance report"), never by id.
      const said = (id: string): string => ctx.store.read((db) => {
        const row = db.get<{ content: string; at: string }>('SELECT content, created_at AS at FROM memories WHERE id = ?', [id])
          ?? db.get<{ content: string; at: string }>('SELECT content, created_at AS at FROM entity_attributes WHERE id = ?', [id]);
        if (!row) return '(no longer stored)';
        const flat = row.content.replace(/\s+/g, ' ').trim();
        return `"${flat.length > 110 ? `${flat.slice(0, 109)}…` : flat}" (${row.at.slice(0, 10)})`;
      });
      const conflicts = conflictList.slice(0, REPORT_LINES_MAX).map((c) => `${said(c.olderId)} ⟷ newer ${said(c.newerId)} — ${c.reason.replace(/_/g, ' ')}`);
      const merges = r.merges.slice(0, REPORT_LINES_MAX).map((m) => `${said(m.keepId)} ≈ ${said(m.dropId)} (similarity ${m.similarity.toFixed(2)})`);
      return { cursor: null, processed: r.scanned, summary: {
        scanned: r.scanned, mergeProposals: r.merges.length, conflictProposals: conflictList.length, clusters: r.clusters.length,
        ...(conflicts.length ? { conflicts: conflicts.join('\n') } : {}), ...(merges.length ? { duplicates: merges.join('\n') } : {}),
      } };
    },
  };
}

/**
 * The durable store's compaction: a snapshot (vacuumed first when the image is at least a tenth
 * unused: snapshotVacuum.ts), after which older journal generations are deleted.
 */
export interface CompactableStore {
  snapshot(options?: { compact?: boolean }): Promise<boolean>;
  stats(): { readonly journalBytes: number; readonly journalGeneration: number; readonly snapshotSeq: number };
}

export function isCompactable(store: object): store is CompactableStore {
  const s = store as Partial<CompactableStore>;
  return typeof s.snapshot === 'function' && typeof s.stats === 'function';
}

export function compactStoreTask(store: CompactableStore): MaintenanceTask {
  return {
    id: 'compact-store',
    title: 'Compact the store (snapshot, drop old journal generations)',
    async step(): Promise<StepResult> {
      const before = store.stats();
      const taken = await store.snapshot({ compact: true });
      const after = store.stats();
      return { cursor: null, processed: taken ? 1 : 0, summary: { snapshotTaken: taken ? 1 : 0, snapshotSeq: after.snapshotSeq, journalGenerationBefore: before.journalGeneration, journalGenerationAfter: after.journalGeneration } };
    },
  };
}
