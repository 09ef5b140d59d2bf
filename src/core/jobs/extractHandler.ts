import type { ContradictionConfig } from '../config/extractionConfig';
import type { GraphConfig } from '../config/graphConfig';
import type { Extractor } from '../extraction/llmExtractor';
import { memorySupersessionsFor, ScanWordCounts } from '../extraction/memorySupersessionScan';
import { collectSiblingCandidates, planSemanticSupersession } from '../extraction/semanticSupersession';
import type { LlmClient } from '../hostContext';
import { applyGraphOp, graphContext } from '../graph/graphApply';
import { isPairSettled } from '../consolidation/conflictRecords';
import { categoryHints } from '../hints/categoryHints';
import { writeHints } from '../hints/hintsJobs';
import { JOB_TYPES } from './jobQueue';
import type { SqlWriter } from '../store/storeTypes';
import type { JobRecord } from './jobQueue';
import type { JobContext, JobHandler, JobOutcome } from './jobWorker';

/**
 * The `extract` job: runs the configured extractor (LLM with heuristic fallback, or heuristic) on
 * the memory and applies the payload through the graph's apply path, as actor
 * `extractor:<source>`. Idempotent: an already extracted or deleted memory completes as skipped.
 * With an LLM, claim-less facts are first checked against their stored siblings by the semantic
 * contradiction path; a confident contradiction supersedes the older sibling (audited) after the
 * write. Then, with or without an LLM, memory-level supersession (extraction/memorySupersession.ts:
 * a newer decision about the same subject, a changed setting value) is detected against the
 * memories sharing its words and recorded through the graph (`supersede_memory`), and a memory
 * naming a known technology gets its category hint (hints/categoryHints.ts). When the job dies,
 * the memory's extraction_status becomes `failed`.
 */
export function createExtractHandler(extractor: Extractor, config: { graph: GraphConfig; contradiction: ContradictionConfig; llm?: LlmClient }): JobHandler {
  // Word counts for the supersession scan's common-word rule, kept across this handler's jobs (memorySupersessionScan.ts).
  const wordCounts = new ScanWordCounts();
  /** Reads, extracts and plans one job; returns the write that records it (run with the completion in a batch). */
  const prepare = async (job: JobRecord, ctx: JobContext): Promise<JobOutcome> => {
    const memoryId = job.memoryId;
    if (!memoryId) return { apply: () => ({ skipped: 'no memory' }) };
    const mem = ctx.store.read((db) => db.get<{ content: string; type: string; is_deleted: number; extraction_status: string; agent_id: string; who: string | null }>(
      'SELECT content, type, is_deleted, extraction_status, agent_id, who FROM memories WHERE id = ?', [memoryId]));
    if (!mem || mem.is_deleted) return { apply: () => ({ skipped: 'memory deleted' }) };
    if (mem.extraction_status === 'complete') return { apply: () => ({ skipped: 'already extracted' }) };
    const result = await extractor.extract(mem.content, ctx.signal, { ...(mem.who ? { who: mem.who } : {}), memoryType: mem.type });
    const candidates = config.llm ? ctx.store.read((db) => collectSiblingCandidates(db, result.payload, mem.agent_id)) : [];
    const plan = await planSemanticSupersession(candidates, { config: config.contradiction, llm: config.llm, logger: ctx.logger, signal: ctx.signal });
    const origin = result.source === 'llm' ? 'llm' : 'heuristic';
    return { apply: (db: SqlWriter) => {
      const still = db.get<{ is_deleted: number }>('SELECT is_deleted FROM memories WHERE id = ?', [memoryId]);
      if (!still || still.is_deleted) return { skipped: 'memory deleted' };
      const gctx = graphContext({ actor: `extractor:${result.source}`, reason: `extraction of memory ${memoryId}`, clock: ctx.clock, agentId: mem.agent_id, config: config.graph, contradiction: config.contradiction });
      const applied = applyGraphOp(db, gctx, { op: 'apply_extraction', sources: [memoryId], payload: result.payload, origin });
      db.run("UPDATE memories SET extraction_status = 'complete', extraction_model = ? WHERE id = ?", [extractor.label, memoryId]);
      const summary = applied.op === 'apply_extraction' ? applied.summary : undefined;
      let semantic = 0;
      for (const p of plan) {
        const newId = summary?.factAttributeIds[p.factIndex];
        if (!newId || newId === p.attributeId) continue;
        const r = applyGraphOp(db, gctx, { op: 'supersede_attribute', attributeId: p.attributeId, supersededBy: newId, why: `semantic contradiction: ${p.verdict.detail}`.slice(0, 300) });
        if (r.op === 'supersede_attribute' && r.superseded) semantic++;
      }
      let memories = 0;
      for (const f of memorySupersessionsFor(db, memoryId, wordCounts)) {
        // A pair a person answered (or two statements they said are both true) is not decided again here.
        if (isPairSettled(db, f.olderId, f.newerId)) continue;
        const r = applyGraphOp(db, gctx, { op: 'supersede_memory', olderId: f.olderId, newerId: f.newerId, why: `${f.kind}: ${f.detail}`.slice(0, 300) });
        if (r.op === 'supersede_memory' && r.superseded) memories++;
      }
      const hints = writeHints(db, memoryId, mem.agent_id, categoryHints(mem.content, mem.type), ctx.clock.now());
      return { source: result.source, issues: result.issues.length, ...(summary ? { entities: summary.entitiesCreated + summary.entitiesConfirmed, relations: summary.relationsCreated + summary.relationsConfirmed, attributes: summary.attributesCreated, superseded: summary.superseded + semantic + memories, skipped: summary.skipped.length } : {}), ...(hints ? { categoryHints: hints } : {}) };
    } };
  };
  return {
    type: JOB_TYPES.extract,
    async runBatch(jobs, ctx) {
      const out: JobOutcome[] = [];
      for (const job of jobs) {
        try { out.push(await prepare(job, ctx)); } catch (e) { out.push({ error: e }); }
      }
      return out;
    },
    async run(job, ctx) {
      const outcome = await prepare(job, ctx);
      if ('error' in outcome) throw outcome.error;
      return ctx.store.write('extract', outcome.apply);
    },
    onDead(db, job) {
      if (job.memoryId) db.run("UPDATE memories SET extraction_status = 'failed' WHERE id = ? AND extraction_status = 'pending'", [job.memoryId]);
    },
  };
}
