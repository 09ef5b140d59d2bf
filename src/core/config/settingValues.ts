/**
 * Checks a setting's value against its entry in the settings table (settingsTable.ts) and parses
 * the text forms the CLI receives (environment variables, `--set key=value`). A bad value gets a
 * message naming the key and what it accepts; the callers decide whether that is a fallback to
 * the default (VS Code settings) or a usage error (the CLI).
 */
import type { SettingSpec } from './settingsTable';
import { SETTING_PREFIX } from './settingsTable';

export type CheckedSetting = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** What a key accepts, in words: "a whole number from 1 to 500", "one of 'none', 'llm'". */
export function acceptedValues(spec: SettingSpec): string {
  if (spec.enum) return `one of ${spec.enum.map((v) => `'${v}'`).join(', ')}`;
  switch (spec.type) {
    case 'boolean': return 'true or false';
    case 'integer': return `a whole number from ${spec.minimum} to ${spec.maximum}`;
    case 'number': return `a number from ${spec.minimum} to ${spec.maximum}`;
    case 'object': return 'an object mapping names to text, e.g. {"pg": "PostgreSQL"}';
    case 'array': return 'a list of text, e.g. ["web", "api"]';
    default: return 'text';
  }
}

const shown = (v: unknown): string => {
  const s = typeof v === 'string' ? `'${v}'` : JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

function wrong(spec: SettingSpec, value: unknown): CheckedSetting {
  return { ok: false, message: `${SETTING_PREFIX}${spec.key} must be ${acceptedValues(spec)} (got ${shown(value)})` };
}

/** The value when it fits the spec (strings trimmed), else a message naming the key and the accepted range. */
export function checkSettingValue(spec: SettingSpec, value: unknown): CheckedSetting {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : wrong(spec, value);
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrong(spec, value);
      if (spec.type === 'integer' && !Number.isInteger(value)) return wrong(spec, value);
      if ((spec.minimum !== undefined && value < spec.minimum) || (spec.maximum !== undefined && value > spec.maximum)) return wrong(spec, value);
      return { ok: true, value };
    }
    case 'string': {
      if (typeof value !== 'string') return wrong(spec, value);
      const v = value.trim();
      return spec.enum && !spec.enum.includes(v) ? wrong(spec, value) : { ok: true, value: v };
    }
    case 'array':
      return Array.isArray(value) && value.every((x) => typeof x === 'string') ? { ok: true, value } : wrong(spec, value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((x) => typeof x === 'string')
        ? { ok: true, value } : wrong(spec, value);
  }
}

/** Parses the text form of a value (an environment variable, `--set key=value`) and checks it. */
export function parseSettingText(spec: SettingSpec, text: string): CheckedSetting {
  const t = text.trim();
  switch (spec.type) {
    case 'boolean':
      return checkSettingValue(spec, t === 'true' ? true : t === 'false' ? false : text);
    case 'integer':
    case 'number':
      return checkSettingValue(spec, t === '' || Number.isNaN(Number(t)) ? text : Number(t));
    case 'string':
      return checkSettingValue(spec, text);
    default: {
      let v: unknown;
      try { v = JSON.parse(t); } catch { return wrong(spec, text); }
      return checkSettingValue(spec, v);
    }
  }
}
