/**
 * Every `agentMemory.*` setting, declared once: key (without the `agentMemory.` prefix), type,
 * default, bounds, enum, VS Code scope, description, and where the value lands in the typed
 * configuration (`target`, a dotted path into MemorySettings; `scale` converts the setting's unit
 * into the configuration's, e.g. seconds to milliseconds). The VS Code reader, the CLI's
 * config.json / environment / `--set` layers and the validation all read this table
 * (memorySettings.ts, settingValues.ts); a unit test proves package.json contributes.configuration
 * says exactly the same (docs/configuration.md).
 */

export type SettingType = 'string' | 'boolean' | 'number' | 'integer' | 'object' | 'array';
export type SettingScope = 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';

export interface SettingSpec {
  readonly key: string;
  readonly type: SettingType;
  readonly default: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly string[];
  /** Element type of an array, value type of an object (string maps). */
  readonly itemType?: 'string';
  /** Omitted = VS Code's default scope (window). */
  readonly scope?: SettingScope;
  /** Restricted in untrusted workspaces (package.json `restricted`). */
  readonly restricted?: boolean;
  /** Read from the user's own settings only, never a workspace's (docs/vscode.md "Settings a workspace cannot change"). */
  readonly userOnly?: boolean;
  /** Dotted path of the value in MemorySettings. */
  readonly target: string;
  /** Factor from the setting's unit to the configuration's. */
  readonly scale?: number;
  readonly description?: string;
  readonly markdownDescription?: string;
  readonly enumDescriptions?: readonly string[];
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const SETTINGS: readonly SettingSpec[] = [
  {
    key: 'store.path', type: 'string', default: '', scope: 'machine', userOnly: true, target: 'storePath',
    markdownDescription: "Folder of the memory store. Empty uses the extension's global storage, so memories follow you across workspaces (each memory records its project).",
  },
  {
    key: 'log.level', type: 'string', default: 'info', enum: ['trace', 'debug', 'info', 'warn', 'error'], target: 'logLevel',
    description: "Minimum level written to the Agent Memory output channel by core services.",
  },
  {
    key: 'feedback.enabled', type: 'boolean', default: true, target: 'feedbackLoop.feedback.enabled',
    description: "Let session outcomes (memories you searched for) raise the weights of their aspects. Runs only with the knowledge graph.",
  },
  {
    key: 'feedback.ftsWeightDelta', type: 'number', default: 0.02, minimum: 0, maximum: 1, target: 'feedbackLoop.feedback.ftsWeightDelta',
    description: "Aspect weight added per search hit on a memory injected at session start.",
  },
  {
    key: 'feedback.minAspectWeight', type: 'number', default: 0.1, minimum: 0, maximum: 1, target: 'feedbackLoop.feedback.minAspectWeight',
    description: "Floor of aspect weights.",
  },
  {
    key: 'feedback.maxAspectWeight', type: 'number', default: 1, minimum: 0, maximum: 1, target: 'feedbackLoop.feedback.maxAspectWeight',
    description: "Ceiling of aspect weights.",
  },
  {
    key: 'feedback.decayEnabled', type: 'boolean', default: true, target: 'feedbackLoop.feedback.decayEnabled',
    description: "Let aspects that stopped being confirmed lose weight.",
  },
  {
    key: 'feedback.decayRate', type: 'number', default: 0.005, minimum: 0, maximum: 1, target: 'feedbackLoop.feedback.decayRate',
    description: "Weight a stale aspect loses per decay run.",
  },
  {
    key: 'feedback.staleDays', type: 'number', default: 14, minimum: 1, maximum: 3650, target: 'feedbackLoop.feedback.staleDays',
    description: "Days without confirmation after which an aspect decays (at most once per this window).",
  },
  {
    key: 'feedback.decayIntervalSessions', type: 'integer', default: 10, minimum: 1, maximum: 1000, target: 'feedbackLoop.feedback.decayIntervalSessions',
    description: "Decay runs every this many sessions, or daily, whichever comes first.",
  },
  {
    key: 'feedback.predictorEnabled', type: 'boolean', default: true, target: 'feedbackLoop.feedback.predictorEnabled',
    description: "Let the learned ranker order session-start memories once it has trained on enough sessions.",
  },
  {
    key: 'feedback.predictorMinSessions', type: 'integer', default: 5, minimum: 1, maximum: 1000, target: 'feedbackLoop.feedback.predictorMinSessions',
    description: "Sessions the learned ranker must be trained on before it ranks live.",
  },
  {
    key: 'sessions.idleTimeoutMinutes', type: 'number', default: 30, minimum: 1, maximum: 1440, target: 'feedbackLoop.session.idleTimeoutMs', scale: MINUTE,
    description: "A chat session with no turn for this long is ended and its feedback processed.",
  },
  {
    key: 'sessions.maxInjectTokens', type: 'integer', default: 12000, minimum: 0, maximum: 200000, target: 'feedbackLoop.session.maxInjectTokens',
    description: "Token budget for memories injected at session start.",
  },
  {
    key: 'hints.enabled', type: 'boolean', default: false, target: 'feedbackLoop.hints.enabled',
    description: "Ask the language model for questions each new memory answers (prospective hints), so recall finds it by intent. Needs a language model.",
  },
  {
    key: 'hints.max', type: 'integer', default: 5, minimum: 1, maximum: 20, target: 'feedbackLoop.hints.max',
    description: "Hints generated per memory.",
  },
  {
    key: 'hints.timeoutSeconds', type: 'number', default: 45, minimum: 5, maximum: 300, target: 'feedbackLoop.hints.timeoutMs', scale: SECOND,
    description: "Timeout of one hints generation call.",
  },
  {
    key: 'maintenance.scheduleEnabled', type: 'boolean', default: true, target: 'feedbackLoop.maintenance.scheduleEnabled',
    description: "Run all maintenance tasks on a schedule (only one window at a time runs them).",
  },
  {
    key: 'maintenance.intervalHours', type: 'number', default: 24, minimum: 1, maximum: 720, target: 'feedbackLoop.maintenance.intervalMs', scale: HOUR,
    description: "Hours between scheduled maintenance runs.",
  },
  {
    key: 'search.alpha', type: 'number', default: 0.5, minimum: 0, maximum: 1, scope: 'window', target: 'search.alpha',
    description: "Weight of semantic (vector) similarity against keyword relevance when fusing recall results: alpha·semantic + (1−alpha)·lexical.",
  },
  {
    key: 'search.minScore', type: 'number', default: 0.1, minimum: 0, maximum: 1, scope: 'window', target: 'search.minScore',
    description: "Fused results below this score are dropped.",
  },
  {
    key: 'search.topK', type: 'integer', default: 20, minimum: 1, maximum: 500, scope: 'window', target: 'search.topK',
    description: "Candidates each search arm (keywords, vectors, hints) contributes.",
  },
  {
    key: 'search.limit', type: 'integer', default: 10, minimum: 1, maximum: 50, scope: 'window', target: 'search.limit',
    description: "Memories a recall returns by default (@memory, tools, Recall command).",
  },
  {
    key: 'search.overFetch', type: 'integer', default: 1, minimum: 1, maximum: 20, scope: 'window', target: 'search.overFetch',
    description: "Retrieval width as a multiple of the result count (more candidates for graph and rerank stages).",
  },
  {
    key: 'search.lexicalEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.lexical.enabled',
    description: "Keyword (full-text, BM25) search arm.",
  },
  {
    key: 'search.termProbing', type: 'boolean', default: true, scope: 'window', target: 'search.lexical.probing',
    description: "Rank keyword hits by how many query terms they contain before BM25 (helps long questions).",
  },
  {
    key: 'search.vectorEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.vector.enabled',
    description: "Semantic (embedding) search arm; needs the embedding model.",
  },
  {
    key: 'search.hintsEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.hints.enabled',
    description: "Search the prospective hints (questions a memory answers) written by the language model.",
  },
  {
    key: 'search.graphBoostEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.graphBoost.enabled',
    description: "Boost memories linked to entities named in the query, weighed by how specific the entity is in the store (off by default: it lowered recall on real conversations, see docs/recall-design.md).",
  },
  {
    key: 'search.graphBoostWeight', type: 'number', default: 0.15, minimum: 0, maximum: 1, scope: 'window', target: 'search.graphBoost.weight',
    description: "Score added to graph-linked memories.",
  },
  {
    key: 'search.traversalEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.traversal.enabled',
    description: "Add memories reached by walking from focal (and pinned) entities through the knowledge graph (off by default: it lowered recall on real conversations, see docs/recall-design.md).",
  },
  {
    key: 'search.pinsFocal', type: 'boolean', default: true, scope: 'window', target: 'search.pins.enabled',
    description: "Let pinned entities shape recall: among the memories that answer the question, those about a pinned entity rank above equally relevant ones. A pin never adds an off-topic memory to an answer.",
  },
  {
    key: 'search.facetsEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.facets.enabled',
    description: "Prefer results that cover different aspects over near-repeats (off by default: it did not raise recall on enough real conversations, see docs/recall-design.md).",
  },
  {
    key: 'search.temporalPriorEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.temporalPrior.enabled',
    description: "Gently favour newer memories (bounded boost with a half-life; off by default: it did not raise recall on real conversations, see docs/recall-design.md).",
  },
  {
    key: 'search.temporalPriorMaxBoost', type: 'number', default: 0.3, minimum: 0, maximum: 1, scope: 'window', target: 'search.temporalPrior.maxBoost',
    description: "Largest relative boost the temporal prior gives a brand-new memory.",
  },
  {
    key: 'search.temporalPriorHalfLifeDays', type: 'number', default: 14, minimum: 0.1, maximum: 3650, scope: 'window', target: 'search.temporalPrior.halfLifeDays',
    description: "Days after which the temporal prior boost halves.",
  },
  {
    key: 'search.recencyEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.recency.enabled',
    description: "Break near-ties in favour of recent memories.",
  },
  {
    key: 'search.recencyHalfLifeDays', type: 'number', default: 30, minimum: 0.1, maximum: 3650, scope: 'window', target: 'search.recency.halfLifeDays',
    description: "Half-life of the recency tie-breaker, in days.",
  },
  {
    key: 'search.currentnessEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.currentness.enabled',
    description: "Lower memories whose facts were superseded by newer ones.",
  },
  {
    key: 'search.gravityDampeningEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.dampening.gravityEnabled',
    description: "Dampen results that match only by meaning and share no word with the query.",
  },
  {
    key: 'search.hubDampeningEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.dampening.hubEnabled',
    description: "Dampen results linked only to very common (hub) entities.",
  },
  {
    key: 'search.resolutionBoostEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.dampening.resolutionEnabled',
    description: "Boost decisions, constraints and dated notes (a month named in a conversation between two people does not count).",
  },
  {
    key: 'search.rerankEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.rerank.enabled',
    description: "Rerank the head of the results with the reranker chosen in agentMemory.models.rerankProvider (off by default: the bundled embedding reranker lowered recall on real conversations, see docs/recall-design.md; turn it on with a cross-encoder or language-model reranker).",
  },
  {
    key: 'search.speakersEnabled', type: 'boolean', default: false, scope: 'window', target: 'search.speakers.enabled',
    description: "When a question names a person who wrote some of the memories (\"what did Priya decide?\"), rank the memories other people wrote a little lower, so that person's own words come first. Off by default: the learned order already weighs who wrote a memory.",
  },
  {
    key: 'search.learnedOrderEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.learnedOrder.enabled',
    description: 'In a conversation between two people (imported turns with their names as authors), reorder the best results with a small model learned from real conversations: it weighs how each search ranked a memory, whether the memory states something or only asks, whether it was written by the person the question names, and whether it replies to a question or sits next to other good matches.',
  },
  {
    key: 'search.queryAdapterEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.vector.queryAdapter',
    description: 'Before searching by meaning, move the question\'s vector towards where the answers to such questions sit, with a small map learned from real conversations (for the bundled use-lite model only; stored memories are not re-embedded). It matters most for questions whose answer shares no words with them.',
  },
  {
    key: 'search.sessionNeighboursEnabled', type: 'boolean', default: true, scope: 'window', target: 'search.neighbours.enabled',
    description: "Bring in the memories captured right before and after a top result in the same session (a question's answer often sits in the next turn).",
  },
  {
    key: 'extraction.aliases', type: 'object', default: {}, itemType: 'string', scope: 'window', target: 'extraction.aliases',
    markdownDescription: "Extra entity aliases, alias → canonical name (e.g. `{ \"the db\": \"PostgreSQL\" }`), on top of the built-in table (JS → JavaScript, Postgres/psql → PostgreSQL, k8s → Kubernetes, …). Names are compared ignoring case, spaces, dots, hyphens and underscores. New memories use them at extraction; the *merge-entities* maintenance task merges existing duplicates.",
  },
  {
    key: 'graph.enabled', type: 'boolean', default: true, scope: 'window', target: 'graphEnabled',
    description: "Build the knowledge graph from new memories (entity extraction) and use it in recall (graph boost, traversal) and in the feedback loop. Off: keyword and semantic recall only.",
  },
  {
    key: 'graph.aspectWeight', type: 'number', default: 0.5, minimum: 0, maximum: 1, scope: 'window', target: 'graph.aspectWeight',
    description: "Starting weight of a new aspect.",
  },
  {
    key: 'graph.duplicateThreshold', type: 'number', default: 0.92, minimum: 0.5, maximum: 1, scope: 'window', target: 'graph.duplicateThreshold',
    description: "Cosine similarity above which maintenance proposes two memories as duplicates.",
  },
  {
    key: 'graph.conflictThreshold', type: 'number', default: 0.85, minimum: 0.5, maximum: 1, scope: 'window', target: 'graph.conflictThreshold',
    description: "Cosine similarity above which two same-slot facts are checked for a conflict.",
  },
  {
    key: 'graph.maintenanceWindow', type: 'integer', default: 200, minimum: 10, maximum: 5000, scope: 'window', target: 'graph.maintenanceWindow',
    description: "Newest memories a duplicate/conflict scan looks at.",
  },
  {
    key: 'models.embeddingModel', type: 'string', default: 'use-lite', scope: 'machine-overridable', restricted: true, target: 'models.embeddingModel',
    markdownDescription: "Embedding model: `use-lite` (bundled), a downloaded hub id such as `Xenova/all-MiniLM-L6-v2` (see **Memory: Download Embedding Model**), or a model folder path. Changing it re-embeds memories during maintenance.",
  },
  {
    key: 'models.embedBatchSize', type: 'integer', default: 32, minimum: 1, maximum: 256, scope: 'window', target: 'models.embedBatchSize',
    description: "Texts embedded per batch.",
  },
  {
    key: 'models.intraOpThreads', type: 'integer', default: 2, minimum: 1, maximum: 16, scope: 'machine-overridable', target: 'models.intraOpThreads',
    description: "CPU threads the embedding model may use.",
  },
  {
    key: 'models.rerankProvider', type: 'string', default: 'embedding', enum: ['none', 'embedding', 'crossEncoder', 'llm'], scope: 'window', target: 'models.rerankProvider',
    description: "Reranker for the head of recall results, used when agentMemory.search.rerankEnabled is on (it is off by default).",
    enumDescriptions: ["Keep the fused order","Blend the score with embedding cosine (fast, local)","A cross-encoder model (agentMemory.models.crossEncoderModel)","The language model (needs agentMemory.llm.provider)"],
  },
  {
    key: 'models.rerankTopN', type: 'integer', default: 20, minimum: 1, maximum: 200, scope: 'window', target: 'models.rerankTopN',
    description: "Results the reranker reorders (the cross-encoder reorders its own head of 6 within 1.5 s).",
  },
  {
    key: 'models.rerankTimeoutMs', type: 'integer', default: 2000, minimum: 50, maximum: 60000, scope: 'window', target: 'models.rerankTimeoutMs',
    description: "Longest recall waits for the reranker before the original order is kept (ms). The LLM reranker scores in the background instead and blends into the next recall of the same query.",
  },
  {
    key: 'models.crossEncoderModel', type: 'string', default: '', scope: 'machine-overridable', restricted: true, target: 'models.crossEncoderModel',
    description: "Cross-encoder model folder or downloaded hub id (used when the rerank provider is crossEncoder).",
  },
  {
    key: 'models.hubUrl', type: 'string', default: 'https://huggingface.co', scope: 'machine', restricted: true, userOnly: true, target: 'models.hubUrl',
    description: "Model hub the embedding model download uses.",
  },
  {
    key: 'models.downloadTimeoutSeconds', type: 'number', default: 30, minimum: 1, maximum: 600, scope: 'machine', target: 'models.downloadTimeoutMs', scale: SECOND,
    description: "Timeout of each request of a model download.",
  },
  {
    key: 'llm.provider', type: 'string', default: 'none', enum: ['none', 'vscode', 'openai-compatible'], scope: 'application', userOnly: true, target: 'llm.provider',
    description: "Extraction model: the language model Agent Memory uses for fact extraction, hints, contradiction checks, session scoring and the LLM reranker (not the chat model that composes @memory answers, which you pick in the chat view). Off by default; the first time you turn it on Agent Memory explains what is sent and asks. Always off in untrusted workspaces.",
    enumDescriptions: ["Off: heuristic extraction, no hints","A VS Code language model (e.g. Copilot) chosen by agentMemory.llm.vscode.*","An OpenAI-compatible endpoint (agentMemory.llm.openaiCompatible.*)"],
  },
  {
    key: 'llm.vscode.vendor', type: 'string', default: '', scope: 'window', target: 'llm.vendor',
    markdownDescription: "Vendor of the VS Code language model to use (e.g. `copilot`); empty for any.",
  },
  {
    key: 'llm.vscode.family', type: 'string', default: '', scope: 'window', target: 'llm.family',
    markdownDescription: "Model family of the VS Code language model (e.g. `gpt-4o-mini`); empty for any.",
  },
  {
    key: 'llm.openaiCompatible.baseUrl', type: 'string', default: '', scope: 'application', restricted: true, userOnly: true, target: 'llm.baseUrl',
    markdownDescription: "Base URL of an OpenAI-compatible API including the version, e.g. `http://localhost:11434/v1` (Ollama). Set the key with **Memory: Set Extraction Model API Key**.",
  },
  {
    key: 'llm.openaiCompatible.model', type: 'string', default: '', scope: 'application', userOnly: true, target: 'llm.model',
    description: "Model name at the OpenAI-compatible endpoint.",
  },
  {
    key: 'llm.timeoutSeconds', type: 'number', default: 60, minimum: 5, maximum: 600, scope: 'window', target: 'llm.timeoutMs', scale: SECOND,
    description: "Timeout of each language model request Agent Memory makes.",
  },
  {
    key: 'jobs.concurrency', type: 'integer', default: 2, minimum: 1, maximum: 8, scope: 'window', target: 'jobs.concurrency',
    description: "Background jobs (embedding, extraction, hints) run at once in this window.",
  },
  {
    key: 'fetch.allowPrivateAddresses', type: 'boolean', default: false, scope: 'machine', restricted: true, userOnly: true, target: 'fetch.allowPrivateAddresses',
    description: "Let Memory: Remember Web Page fetch loopback and private-network addresses.",
  },
  {
    key: 'capture.enabled', type: 'boolean', default: true, scope: 'window', target: 'captureEnabled',
    description: "Record @memory conversations and memory tool calls as sessions, so the feedback loop learns which memories help. Never in untrusted workspaces.",
  },
  {
    key: 'tools.confirmWrites', type: 'boolean', default: true, scope: 'application', userOnly: true, target: 'confirmToolWrites',
    description: "Ask before an agent stores a memory or pins an entity through the memory_remember / memory_pin tools. Read from your user settings only: a workspace cannot turn it off.",
  },
  {
    key: 'mcp.readOnly', type: 'boolean', default: false, scope: 'application', userOnly: true, target: 'mcpReadOnly',
    description: "Serve memory to MCP clients (agent-memory mcp, the server VS Code lists) read-only: recall, search and read tools, resources and prompts only; every tool that writes, forgets or pins is left out.",
  },
  {
    key: 'capture.importFolder', type: 'string', default: '', scope: 'machine', restricted: true, userOnly: true, target: 'capture.importFolder',
    markdownDescription: "Folder watched for transcripts of other agents (VS Code chat exports `.json`, Claude Code session `.jsonl`, generic JSONL); new and appended files are imported. Empty (the default) turns watching off. Only in trusted workspaces.",
  },
  {
    key: 'capture.chatHistory', type: 'boolean', default: false, scope: 'window', restricted: true, target: 'capture.chatHistory',
    markdownDescription: "Capture this workspace's VS Code chat history: follow the chat session logs VS Code keeps for the open workspace (every participant and mode, e.g. Copilot agent mode) and remember what is worth remembering from them. Off by default. `@memory` requests are captured already and skipped here. Only in trusted workspaces with `#agentMemory.capture.enabled#` on. See docs/agents.md.",
  },
  {
    key: 'capture.maxMemoriesPerTranscript', type: 'integer', default: 50, minimum: 0, maximum: 1000, scope: 'window', target: 'capture.maxMemoriesPerTranscript',
    description: "Most memories one imported transcript contributes (its session summary is extra).",
  },
  {
    key: 'team.sharedProjects', type: 'array', default: [], itemType: 'string', scope: 'application', target: 'team.sharedProjects',
    markdownDescription: "Projects (workspace names) whose memories are shared with your team through **Memory: Connect Team Memory…**. Empty (the default) shares nothing. See docs/team.md.",
  },
  {
    key: 'team.replica', type: 'string', default: 'full', enum: ['full', 'partial'], scope: 'application', target: 'team.replica',
    enumDescriptions: [
      "Keep a local copy of every memory the team shares in your shared projects; recall answers locally.",
      "Keep only your own memories and the team memories you recalled; recall also asks the team server (for teams whose shared memories no longer fit one store).",
    ],
    markdownDescription: "How much of the team's shared memory this store replicates. `partial` pulls only changes to memories it holds and makes `recall` consult the team server (see `#agentMemory.team.serverRecallTimeoutMs#`). See docs/team.md \"Partial replicas\".",
  },
  {
    key: 'team.serverRecallTimeoutMs', type: 'integer', default: 1500, minimum: 50, maximum: 60000, scope: 'application', target: 'team.serverRecallTimeoutMs',
    description: "When recall asks the team server (a partial replica, or a full one still catching up on its pull), the longest it waits before answering from the local store alone (milliseconds).",
  },
  {
    key: 'capture.maxTurnChars', type: 'integer', default: 8000, minimum: 200, maximum: 200000, scope: 'window', target: 'capture.maxTurnChars',
    description: "Longest turn text kept from an imported transcript (longer turns, e.g. tool output, are cut).",
  },
  {
    key: 'agents.sessionStartTokens', type: 'integer', default: 1500, minimum: 0, maximum: 12000, target: 'agents.sessionStartTokens',
    description: "Token budget of the memories an agent hook adds when an agent session starts (Claude Code, VS Code agents, Copilot CLI). 0 adds none.",
  },
  {
    key: 'agents.promptTokens', type: 'integer', default: 600, minimum: 0, maximum: 12000, target: 'agents.promptTokens',
    description: "Token budget of the memories an agent hook adds to one prompt. 0 adds none.",
  },
  {
    key: 'agents.relevanceBar', type: 'number', default: 0.45, minimum: 0, maximum: 1, target: 'agents.relevanceBar',
    description: "Least relevance a memory needs before an agent hook adds it to a prompt (its similarity to the prompt, or the share of the prompt's terms it contains). Nothing is added when nothing reaches it.",
  },
  {
    key: 'agents.inject', type: 'boolean', default: true, target: 'agents.injectEnabled',
    description: "Let agent hooks add memories to agent sessions. Off: hooks only capture.",
  },
  {
    key: 'agents.capture.vscode', type: 'boolean', default: true, target: 'agents.captureVscode',
    description: "Capture memorable statements from VS Code agent sessions (hooks and chat history).",
  },
  {
    key: 'agents.capture.claudeCode', type: 'boolean', default: true, target: 'agents.captureClaudeCode',
    description: "Capture memorable statements from Claude Code sessions (hooks).",
  },
  {
    key: 'agents.capture.copilot', type: 'boolean', default: true, target: 'agents.captureCopilot',
    description: "Capture memorable statements from Copilot CLI and cloud agent sessions (hooks).",
  },
  {
    key: 'agents.excludePaths', type: 'array', default: [], itemType: 'string', scope: 'machine-overridable', target: 'agents.excludePaths',
    markdownDescription: "Workspaces and folders nothing is captured from, as globs (`**` any depth), e.g. `**/secret-project/**`.",
  },
];

export const SETTING_PREFIX = 'agentMemory.';

const BY_KEY: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.map((s) => [s.key, s]));

/** The spec of a key given with or without the `agentMemory.` prefix; undefined when unknown. */
export function findSetting(key: string): SettingSpec | undefined {
  return BY_KEY.get(key.startsWith(SETTING_PREFIX) ? key.slice(SETTING_PREFIX.length) : key);
}
