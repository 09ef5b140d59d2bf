import { MemoryError } from '../errors';

/**
 * Secret redaction applied on the write path before anything is stored, embedded or sent to a
 * model. Each rule is a regular expression source; the matched text is replaced.
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
 * Every pattern is anchored on a literal (a keyword, `://`, a key prefix) or, for the prefix-less
 * AWS secret key, on fixed-length lookarounds, and bounded, so a rule costs linear time on long
 * inputs (a 10 MB fetched document is redacted before chunking). docs/ingest.md lists the rules.
 */
export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = [
  // A PEM block: the body (base64 and Proc-Type/DEK-Info headers) runs to the next '-----', so the
  // END line is found without backtracking; a block cut off before END still loses its body.
  { name: 'private-key', pattern: '-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[A-Za-z0-9+/=\\s:,.]|-(?!----)){0,65536}(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----)?', flags: 'g', replacement: REDACTED },
  // user:password@ in any URL; the password may itself contain '@' (the authority ends at the
  // last '@' before a '/', '?', '#' or space), so the greedy run backs off to that last '@'.
  { name: 'connection-string', pattern: '\\b([a-z][a-z0-9+.-]{0,30}://[^\\s:/@]+:)[^\\s/?#]{0,512}(@)', flags: 'gi', replacement: `$1${REDACTED}$2` },
  { name: 'slack-webhook', pattern: '\\b(https?://hooks\\.slack\\.com/)(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,}', flags: 'gi', replacement: `$1${REDACTED}` },
  { name: 'basic-auth', pattern: '\\b((?:proxy-)?authorization["\']?\\s*[:=]\\s*["\']?basic\\s+)[A-Za-z0-9+/=._~-]{4,}', flags: 'gi', replacement: `$1${REDACTED}` },
  { name: 'bearer-token', pattern: '\\b(bearer\\s+)[A-Za-z0-9._~+/=-]{8,}', flags: 'gi', replacement: `$1${REDACTED}` },
  // A JWT anywhere (header and payload are base64url JSON, so both start with "eyJ"); the
  // signature may be empty (alg "none").
  { name: 'jwt', pattern: '\\beyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*', flags: 'g', replacement: REDACTED },
  { name: 'openai-key', pattern: '\\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}', flags: 'g', replacement: REDACTED },
  { name: 'stripe-key', pattern: '\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|\\bwhsec_[A-Za-z0-9]{20,}', flags: 'g', replacement: REDACTED },
  { name: 'npm-token', pattern: '\\bnpm_[A-Za-z0-9]{30,}', flags: 'g', replacement: REDACTED },
  { name: 'aws-access-key', pattern: '\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b', flags: 'g', replacement: REDACTED },
  // An AWS secret access key is 40 base64 characters with no prefix. To leave git hashes (hex,
  // lowercase) and words alone, only a standalone 40-character run that mixes upper case, lower
  // case and digits counts; after a key-like name the secret-assignment rule below catches it too.
  { name: 'aws-secret-key', pattern: '(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])', flags: 'g', replacement: REDACTED },
  { name: 'github-token', pattern: '\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})', flags: 'g', replacement: REDACTED },
  { name: 'slack-token', pattern: '\\b(?:xox[abprse]|xapp)-[A-Za-z0-9-]{10,}', flags: 'g', replacement: REDACTED },
  { name: 'google-api-key', pattern: '\\bAIza[0-9A-Za-z_-]{35}', flags: 'g', replacement: REDACTED },
  {
    name: 'secret-assignment',
    pattern: '((?:password|passwd|pwd|secret(?:[_-]?access)?[_-]?key|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key|token)["\']?\\s*[:=]\\s*)("[^"\\n]*"|\'[^\'\\n]*\'|[^\\s,;&]+)',
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
