/** Maps recall's results and explain records (src/core/recall/recallTypes.ts) to the panel's protocol. */
import { explainText, relevanceOf } from '../../core/recall/explainText';
import type { ExplainTextOptions } from '../../core/recall/explainText';
import type { Explain, RecallResult, ScoreAdjustment } from '../../core/recall/recallTypes';

/** What the explanation of one result needs from its recall: the best score and the memories' texts. */
export type ExplainContext = ExplainTextOptions;

/** The context for every result of one recall (names from the recall's own results). */
export function explainContextOf(results: readonly RecallResult[]): ExplainContext {
  const byId = new Map(results.map((r) => [r.id, r.content]));
  return { best: Math.max(0, ...results.map((r) => r.score)), nameOf: (id) => byId.get(id) };
}
import type { ExplainScore, RecallExplain, RecallResultView, TeamMarkView } from '../../../src/shared/knowledgeProtocolTypes';
import { PROTOCOL_LIMITS } from '../../../src/shared/knowledgeProtocol';

function finite(v: number): number {
  return Number.isFinite(v) ? Math.max(-1e6, Math.min(1e6, v)) : 0;
}

function label(s: string): string {
  const t = s.trim() || 'stage';
  return t.length > PROTOCOL_LIMITS.typeLength ? t.slice(0, PROTOCOL_LIMITS.typeLength) : t;
}

function note(s: string): string {
  return s.length > PROTOCOL_LIMITS.noteLength ? s.slice(0, PROTOCOL_LIMITS.noteLength - 1) + '…' : s;
}

function adjustment(a: ScoreAdjustment): ExplainScore {
  if (a.factor !== undefined) return { name: label(a.stage), value: finite(a.factor), op: 'multiply' };
  return { name: label(a.stage), value: finite(a.delta ?? 0), op: 'add' };
}

export function toExplainView(e: Explain, ctx: ExplainContext = {}): RecallExplain {
  const channels: ExplainScore[] = (Object.entries(e.channels) as [string, number][]).map(([name, value]) => ({ name, value: finite(value), op: 'score' }));
  channels.push({ name: 'fused', value: finite(e.fused), op: 'score' });
  const notes: string[] = [];
  if (e.sources.length) notes.push(`Found by: ${e.sources.join(', ')}`);
  if (e.termsHit !== undefined && e.termCount !== undefined) notes.push(`Query terms hit: ${e.termsHit} of ${e.termCount}`);
  for (const a of [...e.boosts, ...e.penalties]) if (a.note) notes.push(`${a.stage}: ${a.note}`);
  notes.push(...e.notes);
  const max = PROTOCOL_LIMITS.explainItemsMax;
  return {
    channels: channels.slice(0, max),
    boosts: e.boosts.map(adjustment).slice(0, max),
    penalties: e.penalties.map(adjustment).slice(0, max),
    notes: notes.filter((n) => n.trim()).map(note).slice(0, max),
    lines: explainText(e, ctx).filter((l) => l.trim()).map(note).slice(0, max),
  };
}

const clip = (text: string): string => text.length > PROTOCOL_LIMITS.contentLength ? text.slice(0, PROTOCOL_LIMITS.contentLength - 1) + '…' : text;

/** `team`: the memory's team mark (src/core/team/teamMarks.ts), null for a personal memory; `ctx`: the recall's best score and memory texts. */
export function toRecallView(r: RecallResult, team: TeamMarkView | null = null, ctx: ExplainContext = {}): RecallResultView {
  const content = r.content.length > PROTOCOL_LIMITS.contentLength ? r.content.slice(0, PROTOCOL_LIMITS.contentLength - 1) + '…' : r.content;
  return {
    id: r.id, content, score: finite(r.score), relevance: relevanceOf(r.score, ctx.best ?? r.score), memoryType: label(r.type || 'memory'), createdAt: r.createdAt || null,
    stale: r.currentness ? { status: r.currentness.status, replacement: r.currentness.replacement?.trim() ? clip(r.currentness.replacement.trim()) : null } : null,
    explain: r.explain ? toExplainView(r.explain, ctx) : null,
    team: team ? { author: team.author, mine: team.mine } : null,
  };
}
