import { MemoryError } from '../core/errors';

export interface ParsedArgs {
  /** Values of `--name value` and `--name=value`; boolean flags map to true; repeated flags keep the last value. */
  readonly flags: Readonly<Record<string, string | true>>;
  readonly positionals: readonly string[];
}

/** Flags that never take a value. Anything else after `--name` consumes the next argument. */
const BOOLEAN_FLAGS = new Set(['json', 'explain', 'stdin', 'no-wait', 'help', 'all', 'verbose', 'allow-private']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      if (eq > 0) { flags[arg.slice(2, eq)] = arg.slice(eq + 1); continue; }
      const name = arg.slice(2);
      if (BOOLEAN_FLAGS.has(name)) { flags[name] = true; continue; }
      const value = argv[i + 1];
      if (value === undefined) throw new MemoryError('E_USAGE', `--${name} needs a value`);
      flags[name] = value;
      i++;
      continue;
    }
    positionals.push(arg);
  }
  return { flags, positionals };
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
