/**
 * Where the @memory answer's "why?" link leads: the Knowledge panel's Recall tab, showing the
 * recall the answer was built from with that memory's explanation open (in plain words,
 * src/core/recall/explainText.ts), never a Markdown file that chat would attach as context
 * (issue #27). The answer keeps its recall here under a short key; the link carries the key, the
 * memory id and the question, so after a reload (keys are per window) the panel recalls again.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import { PANEL_CONFIG } from '../../../webview/panelConfig';
import type { KnowledgePanels } from './knowledgeView';
import { RecallExplanations } from './recallExplanationStore';

export const SHOW_EXPLAIN_COMMAND = 'agentMemory.showRecallExplanation';

/**
 * Registers SHOW_EXPLAIN_COMMAND(key, memoryId, query): shows the kept recall in the panel, or,
 * when it is no longer kept, recalls the question again (untracked, as the playground does).
 */
export function registerRecallExplanations(context: vscode.ExtensionContext, panels: KnowledgePanels): RecallExplanations {
  const explanations = new RecallExplanations();
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_EXPLAIN_COMMAND, async (key: unknown, memoryId: unknown, query: unknown) => {
    if (typeof key !== 'string' || typeof memoryId !== 'string' || !memoryId) return;
    try {
      let shown = explanations.explanation(key, memoryId);
      if (!shown && typeof query === 'string' && query.trim()) {
        const started = performance.now();
        const results = await panels.source.recall(query, PANEL_CONFIG.recallLimit);
        shown = { query, focusId: memoryId, tookMs: Math.round(performance.now() - started), results };
      }
      if (shown) await panels.showRecallExplanation(shown);
    } catch (e) {
      void vscode.window.showErrorMessage(`Agent Memory could not explain that recall: ${userMessage(e)}`);
    }
  }));
  return explanations;
}
