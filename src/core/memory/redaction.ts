import type { RedactionConfig } from '../config/redactionConfig';

export interface RedactionResult {
  readonly text: string;
  /** Names of the rules that matched, once each, in rule order. */
  readonly rules: readonly string[];
  readonly count: number;
}

/** Replaces every secret the configured rules match. Pure; the input is never logged. */
export function redactSecrets(text: string, config: RedactionConfig): RedactionResult {
  if (!config.enabled) return { text, rules: [], count: 0 };
  let out = text;
  let count = 0;
  const hit: string[] = [];
  for (const rule of config.rules) {
    const flags = rule.flags.includes('g') ? rule.flags : rule.flags + 'g';
    const re = new RegExp(rule.pattern, flags);
    let matched = 0;
    out = out.replace(re, (...args: unknown[]) => {
      matched++;
      const groups = args.slice(1, -2);
      return rule.replacement.replace(/\$(\d)/g, (_m, d: string) => {
        const g = groups[Number(d) - 1];
        return typeof g === 'string' ? g : '';
      });
    });
    if (matched > 0) { hit.push(rule.name); count += matched; }
  }
  return { text: out, rules: hit, count };
}
