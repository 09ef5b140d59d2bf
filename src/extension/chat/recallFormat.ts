/**
 * Markdown for recalled memories (chat answers, tool results, the explain document). vscode-free.
 */
import type { Explain, RecallResult, ScoreAdjustment } from '../../core/recall/recallTypes';

/** Longest snippet of a memory shown in a list line. */
export const SNIPPET_CHARS = 220;

export function snippet(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Escapes characters that would turn memory text into markdown structure or links. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_{}[\]<>()#+!|~])/g, '\\$1');
}

const fmt = (n: number): string => n.toFixed(3);

function adjustment(a: ScoreAdjustment): string {
  const change = a.factor !== undefined ? `×${a.factor.toFixed(3)}` : `${(a.delta ?? 0) >= 0 ? '+' : ''}${(a.delta ?? 0).toFixed(4)}`;
  return `${a.stage} ${change}${a.note ? ` (${a.note})` : ''}`;
}

/** The explain breakdown as markdown bullet lines. */
export function explainLines(e: Explain): string[] {
  const ch = e.channels;
  const terms = e.termsHit !== undefined && e.termCount !== undefined ? ` (${e.termsHit}/${e.termCount} query terms)` : '';
  const lines = [
    `- found by: ${e.sources.length ? e.sources.join(', ') : 'no arm'}`,
    `- channels: lexical ${fmt(ch.lexical)}${terms}, semantic ${fmt(ch.semantic)}, hint ${fmt(ch.hint)}, traversal ${fmt(ch.traversal)}`,
    `- fused score ${fmt(e.fused)} → final ${fmt(e.score)}`,
  ];
  if (e.boosts.length) lines.push(`- boosts: ${e.boosts.map(adjustment).join('; ')}`);
  if (e.penalties.length) lines.push(`- penalties: ${e.penalties.map(adjustment).join('; ')}`);
  for (const n of e.notes) lines.push(`- note: ${n}`);
  return lines;
}

/** One line per memory: number, type, snippet, date; `link(i, r)` may append a markdown link. */
export function resultList(results: readonly RecallResult[], link?: (index: number, r: RecallResult) => string): string {
  return results.map((r, i) => {
    const extra = link ? ` ${link(i, r)}` : '';
    return `${i + 1}. **${escapeMarkdown(r.type)}** — ${escapeMarkdown(snippet(r.content))} _(${r.createdAt.slice(0, 10)}, score ${r.score.toFixed(2)})_${extra}`;
  }).join('\n') + '\n';
}

/** A standalone document for one recalled memory and why it was recalled. */
export function explainDocument(query: string, r: RecallResult): string {
  const lines = [`# Why recalled`, '', `Query: ${escapeMarkdown(query)}`, '', `## Memory ${r.id}`, '', r.content, '',
    `- type: ${r.type}`, `- created: ${r.createdAt}`, `- score: ${r.score.toFixed(4)}`];
  if (r.sourceId) lines.push(`- source: ${r.sourceId}`);
  if (r.explain) lines.push('', '## Score breakdown', '', ...explainLines(r.explain));
  return lines.join('\n') + '\n';
}

/** The prompt that asks a chat model to answer from recalled memories only. */
export function answerPrompt(question: string, results: readonly RecallResult[]): string {
  const memories = results.map((r, i) => `[${i + 1}] (${r.type}, ${r.createdAt.slice(0, 10)}) ${r.content.replace(/\s+/g, ' ').trim()}`).join('\n');
  return [
    'You answer questions about a software project using only the memories below, which were recalled from the team\'s local memory store.',
    'Cite the memories you use as [n]. If the memories do not answer the question, say so briefly. Prefer newer memories when they conflict.',
    '',
    'Memories:',
    memories,
    '',
    `Question: ${question}`,
  ].join('\n');
}
