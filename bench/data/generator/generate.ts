/**
 * Builds the whole development set from the project specs: assembles each project with its own
 * forked random stream, orders all memories by createdAt, assigns stable sourceIds
 * (dev-000001...), resolves question references to ids and serialises to JSON lines.
 */
import type { DevMemory, DevQuestion } from '../../devset';
import { assembleProject } from './assemble';
import type { DraftMemory } from './assemble';
import { createRng } from './prng';
import { PROJECTS } from './projectList';

/** Seed of the committed set; change it only together with the committed files. */
export const DEVSET_SEED = 20260517;

export interface GeneratedDevSet {
  memories: DevMemory[];
  questions: DevQuestion[];
}

export function generateDevSet(seed: number = DEVSET_SEED): GeneratedDevSet {
  const root = createRng(seed);
  const drafts: DraftMemory[] = [];
  const rawQuestions = [];
  const seenText = new Set<string>();
  for (const spec of PROJECTS) {
    const out = assembleProject(spec, root.fork(spec.key), seenText);
    drafts.push(...out.memories);
    rawQuestions.push(...out.questions);
  }
  drafts.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.project.localeCompare(b.project) || a.content.localeCompare(b.content));

  const idOf = new Map<string, string>();
  const memories = drafts.map((d, i): DevMemory => {
    const sourceId = `dev-${String(i + 1).padStart(6, '0')}`;
    if (d.ref !== undefined) idOf.set(d.ref, sourceId);
    const m: DevMemory = { sourceId, content: d.content, type: d.type, createdAt: d.createdAt, sessionId: d.sessionId, project: d.project, who: d.who };
    if (d.tags && d.tags.length > 0) m.tags = d.tags;
    return m;
  });
  const resolve = (r: string): string => {
    const id = idOf.get(r);
    if (id === undefined) throw new Error(`unresolved reference ${r}`);
    return id;
  };
  const questions = rawQuestions.map((q, i): DevQuestion => {
    const out: DevQuestion = { id: `q-${String(i + 1).padStart(4, '0')}`, query: q.query, scopedQuery: q.scopedQuery, gold: q.gold.map(resolve), category: q.category, project: q.project };
    if (q.asOf) out.asOf = q.asOf;
    if (q.notes) out.notes = q.notes;
    if (q.hardNegatives && q.hardNegatives.length > 0) out.hardNegatives = q.hardNegatives.map(resolve);
    return out;
  });
  return { memories, questions };
}

/** JSON lines with a fixed key order (byte-stable across runs). */
export function serializeDevSet(set: GeneratedDevSet): { memories: string; questions: string } {
  const lines = (rows: object[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  return { memories: lines(set.memories), questions: lines(set.questions) };
}
