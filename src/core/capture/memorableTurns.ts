import type { CaptureConfig } from '../config/captureConfig';
import { DEFAULT_EXTRACTION_CONFIG } from '../config/extractionConfig';
import type { ExtractionConfig, FactType } from '../config/extractionConfig';
import { nameKey } from '../extraction/contract';
import { HEURISTIC_IMPORTANCE, heuristicExtract } from '../extraction/heuristicExtractor';
import type { Transcript, TranscriptTurn } from './transcriptTypes';

/**
 * What an imported transcript contributes to memory (docs/transcripts.md, "What gets remembered"):
 * the statements the heuristic extractor recognises as decisions, preferences, constraints and
 * dependencies — from the user (they are the user's own words) and, for the assistant, only its
 * decisions, preferences and constraints (its plain descriptions are mostly narration). Questions,
 * code blocks, tool calls and tool output are never remembered; they stay in the session record.
 */
export interface MemorableStatement {
  readonly content: string;
  readonly type: FactType;
  readonly importance: number;
  readonly turnKey: string;
  /** Index of the statement inside its turn (part of its source id). */
  readonly index: number;
  readonly role: 'user' | 'assistant';
  readonly timestamp?: string;
}

const ASSISTANT_TYPES: ReadonlySet<FactType> = new Set(['decision', 'preference', 'constraint']);
const FENCED_CODE = /```[\s\S]*?(?:```|$)/g;

/** Turn text without fenced code (code is not a statement). */
export function proseOf(text: string): string {
  return text.replace(FENCED_CODE, '\n');
}

function statementsOf(turn: TranscriptTurn, role: 'user' | 'assistant', capture: CaptureConfig, extraction: ExtractionConfig): MemorableStatement[] {
  // Only pattern-matched statements are worth remembering from a transcript, not every sentence naming something.
  const payload = heuristicExtract(proseOf(turn.text), { ...extraction, generalFacts: false });
  const out: MemorableStatement[] = [];
  const seen = new Set<string>();
  for (const f of payload.facts ?? []) {
    if (role === 'assistant' && !ASSISTANT_TYPES.has(f.type)) continue;
    const content = f.content.trim();
    if (content.length < capture.minStatementChars || content.endsWith('?')) continue;
    const key = nameKey(content);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ content, type: f.type, importance: HEURISTIC_IMPORTANCE[f.type], turnKey: turn.key, index: out.length, role, ...(turn.timestamp ? { timestamp: turn.timestamp } : {}) });
  }
  return out;
}

/** The statements of a transcript worth remembering, in transcript order, deduplicated, capped. */
export function memorableStatements(t: Transcript, capture: CaptureConfig, extraction: ExtractionConfig = DEFAULT_EXTRACTION_CONFIG): MemorableStatement[] {
  const out: MemorableStatement[] = [];
  const seen = new Set<string>();
  for (const turn of t.turns) {
    if (turn.role === 'tool') continue;
    for (const s of statementsOf(turn, turn.role, capture, extraction)) {
      const key = nameKey(s.content);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(s);
      if (out.length >= capture.maxMemoriesPerTranscript) return out;
    }
  }
  return out;
}

const FORMAT_LABELS: Readonly<Record<Transcript['format'], string>> = { vscode: 'VS Code chat', claude: 'Claude Code', jsonl: 'agent transcript' };

export function formatLabel(format: Transcript['format']): string {
  return FORMAT_LABELS[format];
}

function excerpt(text: string | undefined, max: number): string {
  const t = proseOf(text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** What the summary of an imported session is made of (a streamed import keeps only these). */
export interface SessionSummaryParts {
  readonly format: Transcript['format'];
  readonly title?: string;
  readonly startedAt?: string;
  readonly counts: Readonly<Record<TranscriptTurn['role'], number>>;
  readonly firstUserText?: string;
  readonly lastAnswerText?: string;
}

/** The one summary memory of an imported session: what it was, when, how long, how it began and ended. */
export function sessionSummaryText(t: Transcript, capture: CaptureConfig, project: string | undefined): string {
  const count = (role: TranscriptTurn['role']): number => t.turns.filter((x) => x.role === role).length;
  return sessionSummaryFromParts({
    format: t.format, ...(t.title ? { title: t.title } : {}), ...(t.startedAt ? { startedAt: t.startedAt } : {}),
    counts: { user: count('user'), assistant: count('assistant'), tool: count('tool') },
    ...(t.turns.find((x) => x.role === 'user') ? { firstUserText: t.turns.find((x) => x.role === 'user')?.text } : {}),
    ...([...t.turns].reverse().find((x) => x.role === 'assistant') ? { lastAnswerText: [...t.turns].reverse().find((x) => x.role === 'assistant')?.text } : {}),
  }, capture, project);
}

export function sessionSummaryFromParts(p: SessionSummaryParts, capture: CaptureConfig, project: string | undefined): string {
  const parts = [
    `Imported ${formatLabel(p.format)} session${p.title ? ` "${p.title}"` : ''}${project ? ` in ${project}` : ''}${p.startedAt ? ` from ${p.startedAt.slice(0, 10)}` : ''}:`,
    `${p.counts.user} request(s), ${p.counts.assistant} answer(s), ${p.counts.tool} tool step(s).`,
  ];
  const first = excerpt(p.firstUserText, capture.summaryExcerptChars);
  const last = excerpt(p.lastAnswerText, capture.summaryExcerptChars);
  if (first) parts.push(`First request: "${first}".`);
  if (last) parts.push(`Last answer: "${last}".`);
  return parts.join(' ');
}
