/**
 * The `agentMemory.*` settings mapped onto the core's typed configs, derived from the settings
 * table (settingsTable.ts): each value is checked against its entry (a bad one is reported through
 * `onProblem`, naming the key and the accepted range, and the default applies), placed at the
 * entry's `target` in MemorySettings, and clamped once more by the core's resolve*Config. vscode-free:
 * `get(key)` returns a setting's value or undefined — the extension passes VS Code's configuration,
 * the CLI its config.json / environment / `--set` layers (docs/configuration.md).
 */
import { resolveAgentsConfig } from './agentsConfig';
import type { AgentsConfig } from './agentsConfig';
import { resolveCaptureConfig } from './captureConfig';
import type { CaptureConfig } from './captureConfig';
import { resolveExtractionConfig } from './extractionConfig';
import type { ExtractionConfig } from './extractionConfig';
import { resolveGraphConfig } from './graphConfig';
import type { GraphConfig } from './graphConfig';
import { resolveFetchConfig } from './ingestConfig';
import type { FetchConfig } from './ingestConfig';
import { resolveJobsConfig } from './jobsConfig';
import type { JobsConfig } from './jobsConfig';
import { resolveModelConfig } from './modelConfig';
import type { ModelConfig } from './modelConfig';
import { resolveSearchConfig } from './searchConfig';
import type { SearchConfig } from './searchConfig';
import { checkSettingValue } from './settingValues';
import type { TeamReplicaMode } from './teamConfig';
import { SETTINGS, findSetting } from './settingsTable';
import type { LogLevel } from '../logger';
import type { FeedbackLoopSettings } from '../sessions/feedbackLoop';

export type SettingGetter = (key: string) => unknown;

/**
 * Settings that weaken a safeguard or say where data goes. package.json declares them `machine`
 * or `application` scoped, and they are read from the user's own settings only (default, then
 * global): a workspace's settings.json — which arrives with a cloned repository — can neither
 * turn write confirmations off nor allow private-address fetches, even in a trusted workspace or
 * an editor that ignores the declared scope (docs/vscode.md "Settings a workspace cannot change").
 * They are the table's `userOnly` entries.
 */
export const USER_ONLY_SETTINGS: readonly string[] = SETTINGS.filter((s) => s.userOnly).map((s) => s.key);

/** What `WorkspaceConfiguration.inspect` returns, reduced to the levels that matter here. */
export interface SettingLevels {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** A getter that reads USER_ONLY_SETTINGS from the user's levels and everything else normally. */
export function userScopedGetter(get: SettingGetter, inspect: (key: string) => SettingLevels | undefined): SettingGetter {
  return (key) => {
    if (!USER_ONLY_SETTINGS.includes(key)) return get(key);
    const levels = inspect(key);
    return levels?.globalValue ?? levels?.defaultValue;
  };
}

export type LlmProviderName = 'none' | 'vscode' | 'openai-compatible';
export const LLM_PROVIDERS: readonly LlmProviderName[] = ['none', 'vscode', 'openai-compatible'];

export interface LlmSettings {
  readonly provider: LlmProviderName;
  /** VS Code language model selector (empty = any). */
  readonly vendor: string;
  readonly family: string;
  /** OpenAI-compatible endpoint and model. The API key lives in SecretStorage, never in settings. */
  readonly baseUrl: string;
  readonly model: string;
  /** Per-call timeout of every LLM request Agent Memory makes. */
  readonly timeoutMs: number;
}

export interface MemorySettings {
  /** Store folder; '' = the extension's global storage. */
  readonly storePath: string;
  readonly search: SearchConfig;
  readonly graphEnabled: boolean;
  readonly graph: GraphConfig;
  /** Extraction defaults plus the user's entity aliases (`agentMemory.extraction.aliases`). */
  readonly extraction: ExtractionConfig;
  readonly models: ModelConfig;
  readonly jobs: JobsConfig;
  readonly fetch: FetchConfig;
  readonly feedbackLoop: FeedbackLoopSettings;
  readonly llm: LlmSettings;
  /** Capture @memory conversations and tool calls as sessions (also needs a trusted workspace). */
  readonly captureEnabled: boolean;
  /** Transcript import limits and the watched import folder ('' = off). */
  readonly capture: CaptureConfig;
  /** Agent hooks and agent capture (agentsConfig.ts, docs/agents.md). */
  readonly agents: AgentsConfig;
  /** Ask before memory_remember / memory_pin write (agent mode and other participants). */
  readonly confirmToolWrites: boolean;
  /** The MCP server offers only its reading tools (docs/mcp.md). */
  readonly mcpReadOnly: boolean;
  /** Minimum level of core service lines in the output channel. */
  readonly logLevel: LogLevel;
  /**
   * Projects shared with the team (the extension mirrors them into the store, teamMemory.ts), the
   * replica mode and the server recall deadline (teamConfig.ts).
   */
  readonly team: { readonly sharedProjects: readonly string[]; readonly replica: TeamReplicaMode; readonly serverRecallTimeoutMs: number };
}

/** Sets `value` at a dotted path, creating the objects on the way. */
function place(tree: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
}

/** The checked values the user set, placed at their targets (in the configuration's units). */
function settingsTree(get: SettingGetter, onProblem: (message: string) => void): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const raw = get(spec.key);
    if (raw === undefined || raw === null) continue;
    const checked = checkSettingValue(spec, raw);
    if (!checked.ok) { onProblem(`${checked.message}; using the default ${JSON.stringify(spec.default)}.`); continue; }
    place(tree, spec.target, spec.scale !== undefined && typeof checked.value === 'number' ? checked.value * spec.scale : checked.value);
  }
  return tree;
}

/** A key's value from the tree, else its table default (scaled like a set value). */
function valueAt(tree: Record<string, unknown>, key: string): unknown {
  const spec = findSetting(key);
  if (!spec) throw new Error(`no setting ${key} in the settings table`);
  let node: unknown = tree;
  for (const part of spec.target.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  if (node !== undefined) return node;
  return spec.scale !== undefined && typeof spec.default === 'number' ? spec.default * spec.scale : spec.default;
}

const section = <T>(tree: Record<string, unknown>, name: string): T => (tree[name] ?? {}) as T;

/**
 * The typed configuration from `get` (one call per table key). `onProblem` hears one line per bad
 * value (the default applies to it); by default problems are dropped, as the reader never fails.
 */
export function readMemorySettings(get: SettingGetter, onProblem: (message: string) => void = () => undefined): MemorySettings {
  const tree = settingsTree(get, onProblem);
  const graphEnabled = valueAt(tree, 'graph.enabled') as boolean;
  const loop = section<FeedbackLoopSettings>(tree, 'feedbackLoop');
  return {
    storePath: valueAt(tree, 'store.path') as string,
    search: resolveSearchConfig(section(tree, 'search')),
    graphEnabled,
    graph: resolveGraphConfig(section(tree, 'graph')),
    extraction: resolveExtractionConfig(section(tree, 'extraction')),
    models: resolveModelConfig(section(tree, 'models')),
    jobs: resolveJobsConfig(section(tree, 'jobs')),
    fetch: resolveFetchConfig(section(tree, 'fetch')),
    feedbackLoop: { graphEnabled, feedback: loop.feedback ?? {}, session: loop.session ?? {}, hints: loop.hints ?? {}, maintenance: loop.maintenance ?? {} },
    llm: {
      provider: valueAt(tree, 'llm.provider') as LlmProviderName,
      vendor: valueAt(tree, 'llm.vscode.vendor') as string,
      family: valueAt(tree, 'llm.vscode.family') as string,
      baseUrl: valueAt(tree, 'llm.openaiCompatible.baseUrl') as string,
      model: valueAt(tree, 'llm.openaiCompatible.model') as string,
      timeoutMs: valueAt(tree, 'llm.timeoutSeconds') as number,
    },
    captureEnabled: valueAt(tree, 'capture.enabled') as boolean,
    capture: resolveCaptureConfig(section(tree, 'capture')),
    agents: resolveAgentsConfig(section(tree, 'agents')),
    confirmToolWrites: valueAt(tree, 'tools.confirmWrites') as boolean,
    mcpReadOnly: valueAt(tree, 'mcp.readOnly') as boolean,
    logLevel: valueAt(tree, 'log.level') as LogLevel,
    team: {
      sharedProjects: valueAt(tree, 'team.sharedProjects') as readonly string[],
      replica: valueAt(tree, 'team.replica') as TeamReplicaMode,
      serverRecallTimeoutMs: valueAt(tree, 'team.serverRecallTimeoutMs') as number,
    },
  };
}

/**
 * The search configuration recall runs on: with the knowledge graph off, the graph's stages
 * (graph boost, traversal) are off too, whatever their own settings say.
 */
export function recallSearchConfig(settings: MemorySettings): SearchConfig {
  const s = settings.search;
  return settings.graphEnabled ? s : { ...s, graphBoost: { ...s.graphBoost, enabled: false }, traversal: { ...s.traversal, enabled: false } };
}

/** Which parts of the runtime a settings change touches. */
export interface SettingsDelta {
  readonly store: boolean;
  /** Embedder, job worker, feedback loop, LLM: rebuilt around the open store. */
  readonly pipeline: boolean;
  readonly llm: boolean;
}

export function settingsDelta(a: MemorySettings, b: MemorySettings): SettingsDelta {
  const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);
  const llm = !same(a.llm, b.llm);
  return {
    store: a.storePath !== b.storePath,
    llm,
    pipeline: llm || !same([a.models, a.jobs, a.graph, a.graphEnabled, a.feedbackLoop, a.extraction], [b.models, b.jobs, b.graph, b.graphEnabled, b.feedbackLoop, b.extraction]),
  };
}
