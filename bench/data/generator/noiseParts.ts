/**
 * Shared fragments for noise memories: small word lists and helpers that turn a project's
 * vocabulary into plausible identifiers, branches, versions and dates.
 */
import type { Rng } from './prng';
import type { ProjectSpec } from './specTypes';

export const FAIL_REASONS = [
  'a timezone-dependent assertion', 'a race in the test setup', 'a stale snapshot',
  'an order-dependent fixture', 'a hard-coded port that was already in use', 'a missing mock for the clock',
  'a floating-point comparison without tolerance', 'a fixture file with Windows line endings',
];
export const TICKET_ISSUES = [
  'logs at debug level in production', 'has no retry on transient failures', 'lacks metrics for queue depth',
  'duplicates validation that already happens upstream', 'swallows errors from its client',
  'keeps a module-level cache that never expires', 'has no test for the empty-input case',
  'prints a deprecation warning on every start', 'reads its config twice at startup',
];
export const PERF_LOADS = ['a synthetic load of 200 rps', 'the nightly batch', 'a cold start', 'the replay of last week\'s traffic', 'a 10x fixture'];
export const BUMP_OUTCOMES = [
  'no breaking changes', 'one type error fixed along the way', 'the changelog mentions a faster parser',
  'had to regenerate the lockfile', 'tests needed a small snapshot update',
];
export const PR_VERBS = ['tidy up', 'add tests for', 'document', 'simplify error handling in', 'remove dead code from', 'rename helpers in', 'add tracing to'];
export const IDEAS = [
  'be split into two packages', 'run in a worker thread', 'drop its legacy code path', 'share code with the admin tools',
  'cache more aggressively', 'be rewritten without the ORM', 'expose a health endpoint',
];
export const LINT_RULES = ['no-floating-promises', 'prefer-const', 'no-shadow', 'eqeqeq', 'max-depth', 'no-explicit-any', 'complexity'];
export const IDENT_VERBS = ['parse', 'load', 'build', 'resolve', 'format', 'apply', 'fetch', 'normalize', 'merge', 'emit'];
export const IDENT_NOUNS = ['Header', 'Config', 'Batch', 'Payload', 'Options', 'Record', 'Token', 'Snapshot', 'Event', 'Range'];
export const JOB_NAMES = ['unit', 'lint', 'integration', 'e2e-smoke', 'build-matrix', 'typecheck', 'docs'];
export const BRANCH_WORDS = ['fix', 'feat', 'chore', 'spike', 'refactor'];
export const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function ident(rng: Rng): string {
  return rng.pick(IDENT_VERBS) + rng.pick(IDENT_NOUNS);
}

export function branch(rng: Rng, spec: ProjectSpec): string {
  const mod = rng.pick(spec.vocab.modules).toLowerCase().replace(/^the /, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${rng.pick(BRANCH_WORDS)}/${mod}-${rng.int(2, 99)}`;
}

export function version(rng: Rng): [string, string] {
  const major = rng.int(0, 9);
  const minor = rng.int(0, 30);
  const from = `${major}.${minor}.${rng.int(0, 12)}`;
  const to = rng.chance(0.7) ? `${major}.${minor + 1}.0` : `${major + 1}.0.0`;
  return [from, to];
}

export function ticket(rng: Rng, spec: ProjectSpec): string {
  return `${spec.vocab.ticket}-${rng.int(11, 980)}`;
}

export function otherPerson(rng: Rng, spec: ProjectSpec, not: string): string {
  const rest = spec.people.filter((p) => p !== not);
  return rest.length > 0 ? rng.pick(rest) : not;
}

export function dayText(rng: Rng): string {
  return `${rng.pick(MONTHS_SHORT)} ${rng.int(1, 28)}`;
}
