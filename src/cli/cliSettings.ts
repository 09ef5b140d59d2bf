/**
 * The CLI's configuration: the same settings table as the extension (src/core/config/settingsTable.ts),
 * read from four layers, highest first: `--set key=value` (repeatable), `AGENT_MEMORY_<KEY>`
 * environment variables, `<store>/config.json`, the table default. Keys are the VS Code keys with
 * or without `agentMemory.`; a variable name is the key upper-cased with dots as underscores
 * (`search.topK` -> AGENT_MEMORY_SEARCH_TOPK). An unknown key or a bad value is a usage error
 * (exit 2) naming the key, the layer and what the key accepts (docs/configuration.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../core/errors';
import { readMemorySettings } from '../core/config/memorySettings';
import type { MemorySettings } from '../core/config/memorySettings';
import { checkSettingValue, parseSettingText } from '../core/config/settingValues';
import type { CheckedSetting } from '../core/config/settingValues';
import { SETTINGS, SETTING_PREFIX, findSetting } from '../core/config/settingsTable';
import type { SettingSpec } from '../core/config/settingsTable';
import type { ParsedArgs } from './args';

export const CONFIG_FILE = 'config.json';

export type SettingSource = 'default' | 'config.json' | '--set' | `env ${string}`;

export interface ResolvedSetting {
  readonly key: string;
  readonly value: unknown;
  readonly source: SettingSource;
}

export interface CliSettings {
  readonly settings: MemorySettings;
  /** Every table key with its value and the layer it came from, in table order. */
  readonly entries: readonly ResolvedSetting[];
}

/** The environment variable of a key: `models.rerankTopN` -> AGENT_MEMORY_MODELS_RERANKTOPN. */
export function envVarFor(key: string): string {
  return `AGENT_MEMORY_${key.replace(/\./g, '_').toUpperCase()}`;
}

/**
 * Where a secret goes instead of a setting, for keys that look like one (an API key, a password).
 * Secrets are never written to config.json or passed on a command line that lands in shell history.
 */
export function secretHint(key: string): string | undefined {
  if (!/(api.?key|password|secret|token)/i.test(key)) return undefined;
  return `${key} is a secret and is never written to disk: give the LLM API key in the AGENT_MEMORY_LLM_KEY environment variable `
    + "(in VS Code: the 'Memory: Set Extraction Model API Key…' command stores it in the editor's secret storage); "
    + 'the team password comes from PGPASSWORD or ~/.pgpass (docs/team.md).';
}

/** The table entry of a user-given key, or a usage error naming it. */
export function settingSpecOf(key: string, where: string): SettingSpec {
  const spec = findSetting(key);
  if (spec) return spec;
  const secret = secretHint(key);
  if (secret) throw new MemoryError('E_USAGE', secret);
  throw new MemoryError('E_USAGE', `unknown setting '${key}' in ${where} (agent-memory config list shows every key)`);
}

function mustBe(checked: CheckedSetting, where: string): unknown {
  if (!checked.ok) throw new MemoryError('E_USAGE', `${checked.message} in ${where}`);
  return checked.value;
}

export function configFilePath(storeDir: string): string {
  return join(storeDir, CONFIG_FILE);
}

/** The raw object of `<store>/config.json` ({} when absent); a usage error when it is not a JSON object. */
export function readConfigObject(storeDir: string): Record<string, unknown> {
  const path = configFilePath(storeDir);
  if (!existsSync(path)) return {};
  let v: unknown;
  try { v = JSON.parse(readFileSync(path, 'utf8')); } catch {
    throw new MemoryError('E_USAGE', `${path} is not valid JSON; fix it or remove it (agent-memory config unset KEY rewrites it)`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MemoryError('E_USAGE', `${path} must hold one JSON object of settings, e.g. {"search.topK": 30}`);
  return v as Record<string, unknown>;
}

/** `--set key=value` pairs, checked. */
function setLayer(args: ParsedArgs): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const pair of args.sets ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new MemoryError('E_USAGE', `--set needs key=value, e.g. --set search.topK=30 (got '${pair}')`);
    const spec = settingSpecOf(pair.slice(0, eq).trim(), '--set');
    out.set(spec.key, mustBe(parseSettingText(spec, pair.slice(eq + 1)), '--set'));
  }
  return out;
}

/** The layered configuration for `args` and the store folder `storeDir` (its config.json). */
export function resolveCliSettings(args: ParsedArgs, storeDir: string, env: NodeJS.ProcessEnv = process.env): CliSettings {
  const sets = setLayer(args);
  const file = new Map<string, unknown>();
  const where = configFilePath(storeDir);
  for (const [key, value] of Object.entries(readConfigObject(storeDir))) {
    const spec = settingSpecOf(key, where);
    file.set(spec.key, mustBe(checkSettingValue(spec, value), where));
  }
  const entries = SETTINGS.map((spec): ResolvedSetting => {
    if (sets.has(spec.key)) return { key: spec.key, value: sets.get(spec.key), source: '--set' };
    const name = envVarFor(spec.key);
    const text = env[name];
    if (text !== undefined && text !== '') return { key: spec.key, value: mustBe(parseSettingText(spec, text), `the environment variable ${name}`), source: `env ${name}` };
    if (file.has(spec.key)) return { key: spec.key, value: file.get(spec.key), source: 'config.json' };
    return { key: spec.key, value: spec.default, source: 'default' };
  });
  const byKey = new Map(entries.map((e) => [e.key, e.value]));
  return { settings: readMemorySettings((k) => byKey.get(k)), entries };
}

/** `agentMemory.search.topK` -> `search.topK` for display. */
export function shortKey(key: string): string {
  return key.startsWith(SETTING_PREFIX) ? key.slice(SETTING_PREFIX.length) : key;
}
