/**
 * Status texts (status bar, tooltip, /status, the Show Status command). vscode-free.
 */
import type { RuntimeStatus } from './runtime/memoryRuntime';
import type { ModelState } from './runtime/trackedEmbedder';

export function modelStateText(m: ModelState): string {
  switch (m.state) {
    case 'ready': return `${m.model} (loaded)`;
    case 'notLoaded': return `${m.model} (loads on first use)`;
    case 'failed': return `${m.model} failed: ${m.message}`;
    case 'missing': return `missing: ${m.message}`;
  }
}

/** The short status bar text. */
export function statusBarText(s: RuntimeStatus): string {
  const jobs = s.pendingJobs > 0 ? ` $(sync~spin) ${s.pendingJobs}` : '';
  const lost = s.storeRecovery !== undefined && (s.storeRecovery.lostRecords > 0 || !s.storeRecovery.lossExact);
  const warn = s.model.state === 'missing' || s.model.state === 'failed' || lost ? ' $(warning)' : '';
  return `$(database) ${s.memories}${jobs}${warn}`;
}

export function statusLines(s: RuntimeStatus, llm: string, capture: boolean): string[] {
  return [
    `Memories: ${s.memories}`,
    `Background jobs: ${s.pendingJobs} pending${s.deadJobs ? `, ${s.deadJobs} failed` : ''}`,
    `Embedding model: ${modelStateText(s.model)}`,
    `Language model: ${llm}`,
    `Session capture: ${capture ? 'on' : 'off'}`,
    `Store: ${s.storeDir}`,
    ...(s.storeRecovery ? [`Store recovery: ${s.storeRecovery.message}`] : []),
  ];
}

export function formatStatusMarkdown(s: RuntimeStatus, llm: string, capture: boolean): string {
  return `**Agent Memory status**\n\n${statusLines(s, llm, capture).map((l) => `- ${l}`).join('\n')}\n`;
}
