/**
 * The recall development set: typed loader and pure ranking metrics.
 * Data lives in bench/data/devset/ (memories.jsonl, questions.jsonl), generated deterministically by
 * scripts/generateDevSet.ts; see bench/data/devset/README.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../src/core/errors';
import type { DevCategory, DevMemoryType } from './data/generator/specTypes';

export type { DevCategory, DevMemoryType } from './data/generator/specTypes';

/** One memory line; also a valid `agent-memory ingest FILE.jsonl` record. */
export interface DevMemory {
  sourceId: string;
  content: string;
  type: DevMemoryType;
  createdAt: string;
  sessionId: string;
  project: string;
  who: string;
  tags?: string[];
}

export interface DevQuestion {
  id: string;
  /** Self-contained question; names its project. */
  query: string;
  /** The same question without the project reference, for evaluators that scope by `project`. */
  scopedQuery?: string;
  /** sourceIds that answer the query; more than one only for multi-part questions. */
  gold: string[];
  category: DevCategory;
  project?: string;
  /** Reference "now" for freshness questions (ISO). */
  asOf?: string;
  notes?: string;
  /** sourceIds deliberately close to the gold but wrong (superseded values, sibling facts). */
  hardNegatives?: string[];
}

export interface DevSet {
  memories: DevMemory[];
  questions: DevQuestion[];
}

/** Default location of the committed set. */
export const DEVSET_DIR = join(__dirname, 'data', 'devset');

/** Parses JSON lines, naming the file and line of the first bad one. */
export function parseJsonLines<T>(text: string, label: string): T[] {
  const out: T[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      throw new MemoryError('E_INVALID_INPUT', `${label}: line ${i + 1} is not valid JSON.`, { line: i + 1 });
    }
  }
  return out;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new MemoryError('E_NOT_FOUND', `Development set file not found: ${path}. Run: npx tsx scripts/generateDevSet.ts`, { path });
  }
}

/** Loads memories.jsonl and questions.jsonl from `dir` (default: the committed set). */
export function loadDevSet(dir: string = DEVSET_DIR): DevSet {
  const memories = parseJsonLines<DevMemory>(readText(join(dir, 'memories.jsonl')), 'memories.jsonl');
  const questions = parseJsonLines<DevQuestion>(readText(join(dir, 'questions.jsonl')), 'questions.jsonl');
  return { memories, questions };
}

/** Fraction of gold ids found in the first k ranked ids (1 when gold is empty would hide errors, so 0). */
export function recallAtK(ranked: readonly string[], gold: readonly string[], k: number): number {
  if (gold.length === 0 || k <= 0) return 0;
  const head = new Set(ranked.slice(0, k));
  let hit = 0;
  for (const g of new Set(gold)) if (head.has(g)) hit++;
  return hit / new Set(gold).size;
}

/** 1 / rank of the first gold id in the ranking (rank 1 = best); 0 when none is ranked. */
export function reciprocalRank(ranked: readonly string[], gold: readonly string[]): number {
  const wanted = new Set(gold);
  for (let i = 0; i < ranked.length; i++) if (wanted.has(ranked[i])) return 1 / (i + 1);
  return 0;
}

export interface QuestionScore {
  category: string;
  recallAt5: number;
  recallAt10: number;
  rr: number;
}

/** Scores one question's ranking. */
export function scoreQuestion(question: { category: string; gold: readonly string[] }, ranked: readonly string[]): QuestionScore {
  return {
    category: question.category,
    recallAt5: recallAtK(ranked, question.gold, 5),
    recallAt10: recallAtK(ranked, question.gold, 10),
    rr: reciprocalRank(ranked, question.gold),
  };
}

export interface AggregateScore {
  count: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
}

export interface AggregateReport {
  overall: AggregateScore;
  byCategory: Record<string, AggregateScore>;
}

function mean(scores: readonly QuestionScore[]): AggregateScore {
  const n = scores.length;
  if (n === 0) return { count: 0, recallAt5: 0, recallAt10: 0, mrr: 0 };
  let r5 = 0;
  let r10 = 0;
  let rr = 0;
  for (const s of scores) {
    r5 += s.recallAt5;
    r10 += s.recallAt10;
    rr += s.rr;
  }
  return { count: n, recallAt5: r5 / n, recallAt10: r10 / n, mrr: rr / n };
}

/** Macro averages overall and per category (categories sorted by name for stable output). */
export function aggregate(scores: readonly QuestionScore[]): AggregateReport {
  const groups = new Map<string, QuestionScore[]>();
  for (const s of scores) {
    const list = groups.get(s.category) ?? [];
    list.push(s);
    groups.set(s.category, list);
  }
  const byCategory: Record<string, AggregateScore> = {};
  for (const name of [...groups.keys()].sort()) byCategory[name] = mean(groups.get(name) ?? []);
  return { overall: mean(scores), byCategory };
}
