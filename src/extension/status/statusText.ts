/**
 * Status texts (status bar, tooltip, /status, the Show Status command). vscode-free.
 */
import type { FeedbackKnowledgeStats } from '../../core/feedback/knowledgeStats';
import type { FeedbackTelemetrySnapshot } from '../../core/feedback/feedbackTelemetry';
import type { EntityHealth } from '../../core/predictor/entityHealthCalc';
import { healthLevel } from '../../../webview/health';
import { PANEL_CONFIG } from '../../../webview/panelConfig';
import type { EngineStatus } from '../../core/engine/memoryEngine';
import type { ModelState } from '../../core/engine/trackedEmbedder';
import { CHAT_MODEL_STATUS_LINE, EXTRACTION_MODEL_LABEL } from '../chat/modelNames';

export function modelStateText(m: ModelState): string {
  switch (m.state) {
    case 'ready': return `${m.model} (loaded)`;
    case 'notLoaded': return `${m.model} (loads on first use)`;
    case 'failed': return `${m.model} failed: ${m.message}`;
    case 'missing': return `missing: ${m.message}`;
  }
}

/** The short status bar text. */
export function statusBarText(s: EngineStatus): string {
  const jobs = s.pendingJobs > 0 ? ` $(sync~spin) ${s.pendingJobs}` : '';
  const lost = s.storeRecovery !== undefined && (s.storeRecovery.lostRecords > 0 || !s.storeRecovery.lossExact);
  const warn = s.model.state === 'missing' || s.model.state === 'failed' || lost ? ' $(warning)' : '';
  return `$(database) ${s.memories}${jobs}${warn}`;
}

export function statusLines(s: EngineStatus, llm: string, capture: boolean): string[] {
  return [
    `Memories: ${s.memories}`,
    `Background jobs: ${s.pendingJobs} pending${s.deadJobs ? `, ${s.deadJobs} failed` : ''}`,
    `Embedding model: ${modelStateText(s.model)}`,
    `${EXTRACTION_MODEL_LABEL}: ${llm}`,
    CHAT_MODEL_STATUS_LINE,
    `Session capture: ${capture ? 'on' : 'off'}`,
    `Store: ${s.storeDir}`,
    ...(s.storeRecovery ? [`Store recovery: ${s.storeRecovery.message}`] : []),
  ];
}

export function formatStatusMarkdown(s: EngineStatus, llm: string, capture: boolean): string {
  return `**Agent Memory status**\n\n${statusLines(s, llm, capture).map((l) => `- ${l}`).join('\n')}\n`;
}

/** What the Show Status document reports beyond the runtime status (read from the store). */
export interface StatusFeedback {
  readonly feedback: FeedbackKnowledgeStats;
  /** This window's feedback loop counters (lastRunAt null before a session ended here). */
  readonly telemetry: FeedbackTelemetrySnapshot;
  readonly health: readonly EntityHealth[];
  /** Why `health` is empty (healthEmptyReason), when it is. */
  readonly healthReason: string | undefined;
  /** Entities with at least this many comparisons count (the health minimum). */
  readonly minComparisons: number;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The Show Status document (rendered as a Markdown preview, never an editable document): the
 * runtime status, the aspect-weight feedback statistics, this window's feedback loop and the
 * entity health the Knowledge panel colours (webview/health.ts).
 */
export function statusDocument(s: EngineStatus, llm: string, capture: boolean, f: StatusFeedback): string {
  const out = ['# Agent Memory status', '', ...statusLines(s, llm, capture).map((l) => `- ${l}`), '', '## Aspect weights (feedback)', ''];
  const fb = f.feedback;
  if (fb.aspectCount === 0) {
    out.push('No aspects yet, so no feedback: aspect weights move once sessions confirm memories (FTS hits) or decay them.');
  } else {
    out.push(
      `- Aspects: ${fb.aspectCount.toLocaleString('en-US')}, average weight ${fb.avgAspectWeight.toFixed(2)}`,
      `- Raised by feedback in the last 7 days: ${plural(fb.aspectsUpdatedByFeedback, 'aspect')}`,
      `- At the maximum weight: ${fb.aspectsAtMax.toLocaleString('en-US')} · at the minimum: ${fb.aspectsAtMin.toLocaleString('en-US')}`,
    );
  }
  out.push('', '## Feedback loop (this window)', '');
  const t = f.telemetry;
  if (t.lastRunAt === null) {
    out.push('No session has ended in this window yet, so the feedback loop has not reported.');
  } else {
    out.push(
      `- Last session end: ${t.lastRunAt}`,
      `- Aspects updated: ${t.feedbackAspectsUpdated.toLocaleString('en-US')} (FTS confirmations ${t.feedbackFtsConfirmations.toLocaleString('en-US')})`,
      `- Aspects decayed: ${t.feedbackDecayedAspects.toLocaleString('en-US')}`,
      `- Attributes propagated: ${t.feedbackPropagatedAttributes.toLocaleString('en-US')}`,
    );
  }
  out.push('', '## Entity health (learned ranker against the baseline)', '');
  if (f.health.length === 0) {
    out.push(f.healthReason ?? `No entity has ${f.minComparisons}+ comparisons yet.`);
  } else {
    const levels = f.health.map((h) => healthLevel(h));
    const count = (level: string): number => levels.filter((l) => l === level).length;
    // The same rule as the panel's dots (webview/health.ts): too few comparisons earn no colour.
    const uncoloured = count('none') ? `, ${count('none')} without a colour yet (fewer than ${PANEL_CONFIG.healthMinComparisons} comparisons)` : '';
    out.push(`${plural(f.health.length, 'entity', 'entities')} with ${f.minComparisons}+ comparisons: ${count('good')} green (improving or high win rate), ${count('stable')} yellow (stable), ${count('bad')} red (declining or losing)${uncoloured}.`);
    const red = f.health.filter((_h, i) => levels[i] === 'bad').slice(0, 5);
    if (red.length) {
      out.push('', 'Red:', '', ...red.map((h) => `- ${h.entityName}: ${h.trend}, win rate ${Math.round(h.winRate * 100)}% over ${h.comparisonCount} comparisons`));
    }
  }
  return out.join('\n') + '\n';
}
