/**
 * Registers every "Memory" command. Each area's commands live in commands/<area>.ts; this file
 * adds the small ones: open panel, show logs, show status, language model setup.
 */
import * as vscode from 'vscode';
import type { Services } from '../host/services';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import { promptLlmConsentIfNeeded } from '../host/services';
import { KNOWLEDGE_VIEW_ID } from '../knowledge/knowledgeView';
import { LLM_API_KEY_SECRET } from '../../core/llm/configuredLlm';
import { DEFAULT_MIN_COMPARISONS } from '../../core/predictor/entityHealthCalc';
import { getEntityHealth } from '../../core/predictor/entityHealth';
import { healthEmptyReason } from '../../core/predictor/healthEmptyReason';
import { knowledgeStats } from '../../core/feedback/knowledgeStats';
import type { MemoryDocuments } from '../documents/memoryDocuments';
import { statusDocument } from '../status/statusText';
import { AGENT_ID } from '../actions/memoryActions';
import { inform, registerSafe } from './commandUtil';
import { registerIoCommands } from './ioCommands';
import { registerMaintenanceCommand } from './maintenanceCommand';
import { registerMemoryCommands } from './memoryCommands';
import { registerModelCommands } from './modelCommands';

/** The Show Status document, read from the open store now (statusText.ts#statusDocument). */
async function statusText(services: Services, extra?: StatusSection): Promise<string> {
  const rt = await services.runtime();
  const feedback = rt.loop.config.feedback;
  const nowMs = services.host.clock.now();
  const read = rt.store.read((db) => {
    const health = getEntityHealth(db, AGENT_ID, undefined, DEFAULT_MIN_COMPARISONS);
    return {
      feedback: knowledgeStats(db, { agentId: AGENT_ID, nowMs, minWeight: feedback.minAspectWeight, maxWeight: feedback.maxAspectWeight }),
      health,
      healthReason: health.length ? undefined : healthEmptyReason(db, AGENT_ID, undefined, DEFAULT_MIN_COMPARISONS),
    };
  });
  const doc = statusDocument(rt.status(), services.llmChoice().description, services.captureEnabled(), {
    ...read, telemetry: rt.loop.sessions.feedbackTelemetry(), minComparisons: DEFAULT_MIN_COMPARISONS,
  });
  return extra ? `${doc}\n${await extra(rt)}` : doc;
}

/** A section another feature adds to the Show Status document (the agents, agents/agentStatusText.ts). */
export type StatusSection = (rt: MemoryEngine) => Promise<string>;

/**
 * Memory: Show Status — the status rendered in its "Memory Status" tab (documentPanels.ts: never
 * an untitled document, which would be dirty and which chat attaches as context; restored after a
 * reload). Returns the Markdown (for callers and tests).
 */
async function showStatus(services: Services, docs: MemoryDocuments, extra?: StatusSection): Promise<string> {
  const text = await statusText(services, extra);
  await docs.showStatus();
  return text;
}

async function enableLanguageModel(services: Services): Promise<void> {
  if (!services.trustGates().llmAllowed) {
    inform('The extraction model stays off in an untrusted workspace.');
    return;
  }
  const pick = await vscode.window.showQuickPick([
    { label: 'VS Code language model', description: 'e.g. Copilot; uses that model\'s quota', id: 'vscode' },
    { label: 'OpenAI-compatible endpoint', description: 'Ollama, LM Studio or a hosted API', id: 'openai-compatible' },
    { label: 'Off', description: 'heuristic extraction, no hints', id: 'none' },
  ], { title: 'Extraction model (fact extraction, hints and reranking; not the chat model that composes @memory answers)' });
  if (!pick) return;
  await vscode.workspace.getConfiguration('agentMemory').update('llm.provider', pick.id, vscode.ConfigurationTarget.Global);
}

export function registerCommands(context: vscode.ExtensionContext, services: Services, docs: MemoryDocuments, extraStatus?: StatusSection): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentMemory.showLogs', () => services.logger.show(true)),
    vscode.commands.registerCommand('agentMemory.openKnowledgePanel', async () => {
      await vscode.commands.executeCommand(`${KNOWLEDGE_VIEW_ID}.focus`);
    }),
  );
  // Set now, not when the command first runs: a status tab restored after a reload recomputes it.
  docs.setStatusSource(() => statusText(services, extraStatus));
  registerSafe(context, services, 'agentMemory.showStatus', 'Show Status', () => showStatus(services, docs, extraStatus));
  registerSafe(context, services, 'agentMemory.enableLanguageModel', 'Choose Extraction Model', () => enableLanguageModel(services));
  registerSafe(context, services, 'agentMemory.setLlmApiKey', 'Set Extraction Model API Key', async () => {
    const key = await vscode.window.showInputBox({ title: 'API key for the OpenAI-compatible endpoint', password: true, prompt: 'Stored in VS Code\'s secret storage; leave empty to remove it.', ignoreFocusOut: true });
    if (key === undefined) return;
    if (key.trim()) await services.secrets.set(LLM_API_KEY_SECRET, key.trim());
    else await services.secrets.delete(LLM_API_KEY_SECRET);
    await services.reapply();
    inform(key.trim() ? 'API key stored.' : 'API key removed.');
  });
  registerSafe(context, services, 'agentMemory.reviewLanguageModelConsent', 'Extraction Model Consent', () => promptLlmConsentIfNeeded(services));
  registerMemoryCommands(context, services);
  registerMaintenanceCommand(context, services, docs);
  registerIoCommands(context, services);
  registerModelCommands(context, services);
}
