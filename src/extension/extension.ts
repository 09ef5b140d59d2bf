import * as vscode from 'vscode';
import { userMessage } from '../core/errors';
import { createServices, promptLlmConsentIfNeeded } from './host/services';
import type { Services } from './host/services';
import { registerCommands } from './commands/registerCommands';
import { registerGraphTree } from './tree/graphTree';
import type { GraphTreeProvider } from './tree/graphTree';
import { registerKnowledgeView } from './knowledge/knowledgeView';
import { StoreKnowledgeSource } from './knowledge/storeKnowledgeSource';
import { registerChatParticipant } from './chat/chatParticipant';
import { registerRecallExplanations } from './knowledge/recallExplanations';
import { registerMemoryOnlyModel } from './chat/memoryOnlyModel';
import { registerMemoryDocuments } from './documents/memoryDocuments';
import { registerTools } from './tools/lmTools';
import type { createTools } from './tools/lmTools';
import { registerStatusBar } from './status/statusBar';
import { registerImportFolder } from './capture/importFolder';
import { registerTeamMemory } from './team/teamMemory';
import { registerWorkspaceGazetteer } from './gazetteer/workspaceGazetteer';
import { registerChatHistory } from './capture/chatHistory';
import type { ChatHistory } from './capture/chatHistory';
import { registerAgentConnections } from './agents/connectAgents';
import type { AgentConnections } from './agents/connectAgents';
import { agentStatusSection } from './agents/agentStatusText';
import { registerRecentCaptures } from './agents/recentCapturesView';
import { registerMcpServer } from './mcp/mcpServerProvider';

/** What activate() returns: for other extensions and the integration tests. */
export interface AgentMemoryApi {
  readonly services: Services;
  readonly graphTree: GraphTreeProvider;
  readonly tools: ReturnType<typeof createTools>;
  /** The VS Code chat-history follower (agentMemory.capture.chatHistory). */
  readonly chatHistory: ChatHistory;
  /** Memory: Connect Agents… and what it wrote. */
  readonly agentConnections: AgentConnections;
  /** How long activate() took (it never opens the store). */
  readonly activationMs: number;
}

let active: Services | undefined;

/** Delay after activation before the store opens in the background (first use opens it sooner). */
export const BACKGROUND_OPEN_DELAY_MS = 2_000;

/**
 * The composition root: the only place that builds services and wires them to VS Code.
 * Nothing here touches the store: it opens on first use. Every disposable goes into
 * context.subscriptions.
 */
export async function activate(context: vscode.ExtensionContext): Promise<AgentMemoryApi> {
  const started = Date.now();
  const services = createServices(context);
  active = services;
  context.subscriptions.push(services);
  services.logger.info(`Agent Memory ${context.extension.packageJSON.version as string} activating (Node ${process.version}, VS Code ${vscode.version})`);
  const docs = registerMemoryDocuments(context, services);
  const chatHistory = registerChatHistory(context, services);
  const agentConnections = registerAgentConnections(context, services);
  registerCommands(context, services, docs, async (rt) => {
    const stats = chatHistory.stats();
    return agentStatusSection(agentConnections.connections(), await rt.agentActivity(), {
      enabled: services.settings().capture.chatHistory && services.captureEnabled(), folder: chatHistory.folder, ...(stats ? { stats } : {}),
    });
  });
  const graphTree = registerGraphTree(context, services);
  const panels = registerKnowledgeView(context, services);
  panels.source.setOpenerBySideEffect(() => services.runtime()); // the panel's first request opens the store
  registerChatParticipant(context, services, registerRecallExplanations(context, panels));
  registerMemoryOnlyModel(context, services);
  const tools = registerTools(context, services);
  const statusBar = registerStatusBar(context, services);
  registerImportFolder(context, services);
  registerTeamMemory(context, services);
  registerWorkspaceGazetteer(context, services);
  registerRecentCaptures(context, services);
  registerMcpServer(context, services);

  // The Knowledge panel reads the store that is open now; a new runtime (store path, models, LLM) replaces its source.
  let panelSource: { source: StoreKnowledgeSource; sub: vscode.Disposable } | undefined;
  context.subscriptions.push(services.onDidOpenRuntime((rt) => {
    const feedback = rt.loop.config.feedback;
    const source = new StoreKnowledgeSource({
      store: rt.store, clock: rt.recallDeps().clock, minAspectWeight: feedback.minAspectWeight, maxAspectWeight: feedback.maxAspectWeight,
      telemetry: () => rt.sessions.feedbackTelemetry(), recallUntracked: (req) => rt.recallDetailed(req, { track: false }),
    });
    const previous = panelSource;
    panelSource = { source, sub: panels.setDataSource(source) };
    previous?.sub.dispose();
    previous?.source.dispose();
  }), { dispose: () => { panelSource?.sub.dispose(); panelSource?.source.dispose(); } });

  // After activation, off its critical path: open the store so queued background jobs resume, idle
  // sessions end and the status bar fills in; then ask once for a provider configured in settings.json.
  const warmUp = setTimeout(() => {
    void services.runtime().catch((e: unknown) => {
      services.logger.warn(`opening the store: ${userMessage(e)}`);
      statusBar.text = '$(database) $(error)';
      statusBar.tooltip = `Agent Memory could not open its store: ${userMessage(e)}`;
    });
    void promptLlmConsentIfNeeded(services).catch((e: unknown) => services.logger.warn(`language model consent: ${userMessage(e)}`));
  }, BACKGROUND_OPEN_DELAY_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(warmUp) });
  const activationMs = Date.now() - started;
  services.logger.info(`Agent Memory activated in ${activationMs} ms (store opens on first use)`);
  return { services, graphTree, tools, chatHistory, agentConnections, activationMs };
}

export async function deactivate(): Promise<void> {
  await active?.shutdown();
  active = undefined;
}
