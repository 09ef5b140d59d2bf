/**
 * The `agentMemory.*` settings (package.json contributes.configuration) mapped onto the core's
 * typed configs. vscode-free: `get(key)` returns a setting's value or undefined; every value is
 * clamped by the core's resolve*Config, so a bad settings.json value can never break recall.
 */
import { resolveCaptureConfig } from '../../core/config/captureConfig';
import type { CaptureConfig } from '../../core/config/captureConfig';
import { resolveExtractionConfig } from '../../core/config/extractionConfig';
import type { ExtractionConfig } from '../../core/config/extractionConfig';
import { resolveGraphConfig } from '../../core/config/graphConfig';
import type { GraphConfig } from '../../core/config/graphConfig';
import { resolveFetchConfig } from '../../core/config/ingestConfig';
import type { FetchConfig } from '../../core/config/ingestConfig';
import { resolveJobsConfig } from '../../core/config/jobsConfig';
import type { JobsConfig } from '../../core/config/jobsConfig';
import { resolveModelConfig } from '../../core/config/modelConfig';
import type { ModelConfig, RerankProviderName } from '../../core/config/modelConfig';
import { resolveSearchConfig } from '../../core/config/searchConfig';
import type { SearchConfig } from '../../core/config/searchConfig';
import type { LogLevel } from '../../core/logger';
import type { FeedbackLoopSettings } from '../../core/sessions/feedbackLoop';
import { isLogLevel } from '../levelLogger';
import { feedbackLoopSettingsFrom } from '../../core/sessions/feedbackLoopSettings';

export type SettingGetter = (key: string) => unknown;

/**
 * Settings that weaken a safeguard or say where data goes. package.json declares them `machine`
 * or `application` scoped, and they are read from the user's own settings only (default, then
 * global): a workspace's settings.json — which arrives with a cloned repository — can neither
 * turn write confirmations off nor allow private-address fetches, even in a trusted workspace or
 * an editor that ignores the declared scope (docs/vscode.md "Settings a workspace cannot change").
 */
export const USER_ONLY_SETTINGS: readonly string[] = [
  'tools.confirmWrites', 'fetch.allowPrivateAddresses', 'store.path', 'capture.importFolder', 'models.hubUrl',
  'llm.provider', 'llm.openaiCompatible.baseUrl', 'llm.openaiCompatible.model',
];

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
  /** Ask before memory_remember / memory_pin write (agent mode and other participants). */
  readonly confirmToolWrites: boolean;
  /** Minimum level of core service lines in the output channel. */
  readonly logLevel: LogLevel;
}

const SECOND = 1_000;
/** Bounds of `agentMemory.llm.timeoutSeconds` (also declared in package.json). */
export const LLM_TIMEOUT_SECONDS = { default: 60, min: 5, max: 600 } as const;

const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v.trim() : d);
const bool = (v: unknown, d: boolean): boolean => (typeof v === 'boolean' ? v : d);
const numOrUndef = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function clampNum(v: unknown, d: number, min: number, max: number): number {
  const n = numOrUndef(v);
  return n === undefined ? d : Math.min(max, Math.max(min, n));
}

/** Drops undefined entries so the resolvers see only what the user set. */
function defined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

function boolOrUndef(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

export function searchSettings(get: SettingGetter): SearchConfig {
  const b = (k: string): boolean | undefined => boolOrUndef(get(`search.${k}`));
  const n = (k: string): number | undefined => numOrUndef(get(`search.${k}`));
  return resolveSearchConfig({
    ...defined({ alpha: n('alpha'), minScore: n('minScore'), topK: n('topK'), limit: n('limit'), overFetch: n('overFetch') }),
    lexical: defined({ enabled: b('lexicalEnabled'), probing: b('termProbing') }),
    vector: defined({ enabled: b('vectorEnabled') }),
    hints: defined({ enabled: b('hintsEnabled') }),
    graphBoost: defined({ enabled: b('graphBoostEnabled'), weight: n('graphBoostWeight') }),
    traversal: defined({ enabled: b('traversalEnabled') }),
    facets: defined({ enabled: b('facetsEnabled') }),
    temporalPrior: defined({ enabled: b('temporalPriorEnabled'), maxBoost: n('temporalPriorMaxBoost'), halfLifeDays: n('temporalPriorHalfLifeDays') }),
    recency: defined({ enabled: b('recencyEnabled'), halfLifeDays: n('recencyHalfLifeDays') }),
    currentness: defined({ enabled: b('currentnessEnabled') }),
    dampening: defined({ gravityEnabled: b('gravityDampeningEnabled'), hubEnabled: b('hubDampeningEnabled'), resolutionEnabled: b('resolutionBoostEnabled') }),
    rerank: defined({ enabled: b('rerankEnabled') }),
    neighbours: defined({ enabled: b('sessionNeighboursEnabled') }),
  });
}

export function modelSettings(get: SettingGetter): ModelConfig {
  const timeoutS = numOrUndef(get('models.downloadTimeoutSeconds'));
  return resolveModelConfig(defined({
    embeddingModel: typeof get('models.embeddingModel') === 'string' ? (get('models.embeddingModel') as string) : undefined,
    embedBatchSize: numOrUndef(get('models.embedBatchSize')),
    intraOpThreads: numOrUndef(get('models.intraOpThreads')),
    rerankProvider: typeof get('models.rerankProvider') === 'string' ? (get('models.rerankProvider') as RerankProviderName) : undefined,
    rerankTopN: numOrUndef(get('models.rerankTopN')),
    rerankTimeoutMs: numOrUndef(get('models.rerankTimeoutMs')),
    crossEncoderModel: typeof get('models.crossEncoderModel') === 'string' ? (get('models.crossEncoderModel') as string) : undefined,
    hubUrl: typeof get('models.hubUrl') === 'string' ? (get('models.hubUrl') as string) : undefined,
    downloadTimeoutMs: timeoutS === undefined ? undefined : timeoutS * SECOND,
  }));
}

export function llmSettings(get: SettingGetter): LlmSettings {
  const provider = str(get('llm.provider'), 'none');
  return {
    provider: (LLM_PROVIDERS as readonly string[]).includes(provider) ? (provider as LlmProviderName) : 'none',
    vendor: str(get('llm.vscode.vendor')),
    family: str(get('llm.vscode.family')),
    baseUrl: str(get('llm.openaiCompatible.baseUrl')),
    model: str(get('llm.openaiCompatible.model')),
    timeoutMs: clampNum(get('llm.timeoutSeconds'), LLM_TIMEOUT_SECONDS.default, LLM_TIMEOUT_SECONDS.min, LLM_TIMEOUT_SECONDS.max) * SECOND,
  };
}

export function readMemorySettings(get: SettingGetter): MemorySettings {
  const graphEnabled = bool(get('graph.enabled'), true);
  return {
    storePath: str(get('store.path')),
    search: searchSettings(get),
    graphEnabled,
    graph: resolveGraphConfig(defined({
      aspectWeight: numOrUndef(get('graph.aspectWeight')),
      duplicateThreshold: numOrUndef(get('graph.duplicateThreshold')),
      conflictThreshold: numOrUndef(get('graph.conflictThreshold')),
      maintenanceWindow: numOrUndef(get('graph.maintenanceWindow')),
    })),
    extraction: resolveExtractionConfig(get('extraction.aliases') === undefined ? {} : { aliases: get('extraction.aliases') as Record<string, string> }),
    models: modelSettings(get),
    jobs: resolveJobsConfig(defined({ concurrency: numOrUndef(get('jobs.concurrency')) })),
    fetch: resolveFetchConfig(defined({ allowPrivateAddresses: boolOrUndef(get('fetch.allowPrivateAddresses')) })),
    feedbackLoop: feedbackLoopSettingsFrom((k) => get(k), graphEnabled),
    llm: llmSettings(get),
    captureEnabled: bool(get('capture.enabled'), true),
    capture: resolveCaptureConfig(defined({
      importFolder: typeof get('capture.importFolder') === 'string' ? (get('capture.importFolder') as string) : undefined,
      maxMemoriesPerTranscript: numOrUndef(get('capture.maxMemoriesPerTranscript')),
      maxTurnChars: numOrUndef(get('capture.maxTurnChars')),
    })),
    confirmToolWrites: bool(get('tools.confirmWrites'), true),
    logLevel: isLogLevel(get('log.level')) ? (get('log.level') as LogLevel) : 'info',
  };
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
