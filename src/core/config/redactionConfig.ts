import { MemoryError } from '../errors';

/**
 * Secret redaction applied on the write path before anything is stored, embedded or sent to a
 * model (issue 5 §1). Each rule is a regular expression source; the matched text is replaced.
 * A rule may keep a prefix group: `$1` in `replacement` refers to capture group 1.
 */
export interface RedactionRule {
  readonly name: string;
  readonly pattern: string;
  readonly flags: string;
  readonly replacement: string;
}

export interface RedactionConfig {
  readonly enabled: boolean;
  readonly rules: readonly RedactionRule[];
}

/** The text that stands in for a removed secret. */
export const REDACTED = '[REDACTED]';

/**
 * Built-in rules. Order matters: multi-line private keys first, then credentials inside URLs,
 * then header tokens, then well-known key shapes, then generic `password = value` assignments.
 * Every pattern is anchored on a literal (a keyword, `://`, a key prefix) and bounded, so a rule
 * costs linear time on long inputs (a 10 MB fetched document is redacted before chunking).
 */
export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = [
  // A PEM block: the body (base64 and Proc-Type/DEK-Info headers) runs to the next '-----', so the
  // END line is found without backtracking; a block cut off before END still loses its body.
  { name: 'private-key', pattern: '-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[A-Za-z0-9+/=\\s:,.]|-(?!----)){0,65536}(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----)?', flags: 'g', replacement: REDACTED },
  { name: 'connection-string', pattern: '\\b([a-z][a-z0-9+.-]{0,30}://[^\\s:/@]+:)[^\\s@/]+(@)', flags: 'gi', replacement: `$1${REDACTED}$2` },
  { name: 'bearer-token', pattern: '\\b(bearer\\s+)[A-Za-z0-9._~+/=-]{8,}', flags: 'gi', replacement: `$1${REDACTED}` },
  { name: 'openai-key', pattern: '\\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}', flags: 'g', replacement: REDACTED },
  { name: 'aws-access-key', pattern: '\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b', flags: 'g', replacement: REDACTED },
  { name: 'github-token', pattern: '\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})', flags: 'g', replacement: REDACTED },
  { name: 'slack-token', pattern: '\\bxox[abprs]-[A-Za-z0-9-]{10,}', flags: 'g', replacement: REDACTED },
  { name: 'google-api-key', pattern: '\\bAIza[0-9A-Za-z_-]{35}', flags: 'g', replacement: REDACTED },
  {
    name: 'secret-assignment',
    pattern: '((?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|token)["\']?\\s*[:=]\\s*)("[^"\\n]*"|\'[^\'\\n]*\'|[^\\s,;]+)',
    flags: 'gi',
    replacement: `$1${REDACTED}`,
  },
];

export const DEFAULT_REDACTION_CONFIG: RedactionConfig = { enabled: true, rules: DEFAULT_REDACTION_RULES };

export interface RedactionConfigInput {
  enabled?: boolean;
  /** Extra rules appended after the built-in ones. */
  extraRules?: readonly RedactionRule[];
  /** Names of built-in rules to switch off. */
  disabledRules?: readonly string[];
}

/** Validates every pattern (a bad regex is a coded error naming the rule) and composes the rule list. */
export function resolveRedactionConfig(input: RedactionConfigInput = {}): RedactionConfig {
  const disabled = new Set(input.disabledRules ?? []);
  const rules = [...DEFAULT_REDACTION_RULES.filter((r) => !disabled.has(r.name)), ...(input.extraRules ?? [])];
  for (const rule of rules) {
    try {
      new RegExp(rule.pattern, rule.flags.includes('g') ? rule.flags : rule.flags + 'g');
    } catch {
      throw new MemoryError('E_INVALID_INPUT', `Redaction rule '${rule.name}' has an invalid pattern`, { rule: rule.name });
    }
  }
  return { enabled: input.enabled ?? true, rules };
}
