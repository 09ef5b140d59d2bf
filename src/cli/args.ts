import { MemoryError } from '../core/errors';

export interface ParsedArgs {
  /** Values of `--name value` and `--name=value`; boolean flags map to true; repeated flags keep the last value. */
  readonly flags: Readonly<Record<string, string | true>>;
  readonly positionals: readonly string[];
  /** Every `--set key=value`, in order (the one repeatable flag; src/cli/cliSettings.ts). */
  readonly sets?: readonly string[];
}

/** Flags that never take a value. */
export const BOOLEAN_FLAGS: ReadonlySet<string> = new Set(['json', 'explain', 'stdin', 'no-wait', 'help', 'all', 'verbose', 'allow-private', 'full', 'write']);

/** Flags that always take a value (`--name value` or `--name=value`). */
export const VALUE_FLAGS: ReadonlySet<string> = new Set([
  'store', 'workspace', 'type', 'source-id', 'session', 'project', 'created-at', 'limit', 'only', 'model', 'models', 'cache',
  'query', 'role', 'harness', 'agent', 'event', 'since', 'min', 'llm-url', 'llm-model', 'format', 'out', 'who', 'set', 'client', 'file',
]);

/**
 * Parses `argv` against the known flags. An unknown flag is a usage error (exit 2) rather than
 * being ignored: guessing whether it takes a value would swallow the next argument
 * (`recall --bogus x pnpm` searching for "pnpm" alone). A boolean flag given `=value` is refused
 * for the same reason.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  const sets: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      if (BOOLEAN_FLAGS.has(name)) {
        if (eq > 0) throw new MemoryError('E_USAGE', `--${name} takes no value`);
        flags[name] = true;
        continue;
      }
      if (!VALUE_FLAGS.has(name)) throw new MemoryError('E_USAGE', `unknown option --${name}`);
      const value = eq > 0 ? arg.slice(eq + 1) : argv[i + 1];
      if (value === undefined) throw new MemoryError('E_USAGE', `--${name} needs a value`);
      flags[name] = value;
      if (name === 'set') sets.push(value);
      if (eq <= 0) i++;
      continue;
    }
    positionals.push(arg);
  }
  return { flags, positionals, ...(sets.length ? { sets } : {}) };
}

/** Flags every command accepts. */
const GLOBAL_FLAGS: readonly string[] = ['store', 'verbose', 'help', 'set', 'workspace'];

/** Refuses any flag the command does not take (GLOBAL_FLAGS are accepted everywhere). */
export function checkFlags(args: ParsedArgs, command: string, allowed: readonly string[]): void {
  for (const name of Object.keys(args.flags)) {
    if (GLOBAL_FLAGS.includes(name) || allowed.includes(name)) continue;
    throw new MemoryError('E_USAGE', `${command} does not take --${name}`);
  }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  if (v === true) throw new MemoryError('E_USAGE', `--${name} needs a value`);
  return v;
}

export function intFlag(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new MemoryError('E_USAGE', `--${name} must be a whole number from ${min} to ${max}`);
  return n;
}
