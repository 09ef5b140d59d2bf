/**
 * `agent-memory config list [--json]`, `config get KEY [--json]`, `config set KEY VALUE`,
 * `config unset KEY`: the CLI's settings (cliSettings.ts). `set` checks the value against the
 * settings table before writing `<store>/config.json`; secrets are refused with where they go.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { MemoryError } from '../../core/errors';
import { parseSettingText } from '../../core/config/settingValues';
import type { ParsedArgs } from '../args';
import { configFilePath, envVarFor, readConfigObject, resolveCliSettings, settingSpecOf } from '../cliSettings';
import type { ResolvedSetting } from '../cliSettings';
import { cliSettingNote } from '../editorOnlySettings';
import { cliStoreDir } from '../openCliStore';
import type { CliIo } from '../run';

const USAGE = 'usage: agent-memory config list | get KEY | set KEY VALUE | unset KEY';

const text = (v: unknown): string => (typeof v === 'string' ? (v === '' ? "''" : v) : JSON.stringify(v));

function line(e: ResolvedSetting): string {
  const note = cliSettingNote(e.key);
  return `${e.key} = ${text(e.value)}  (${e.source}${note ? `; ${note}` : ''})\n`;
}

/** The JSON form of an entry: `cli` says how the CLI treats a key it does not fully honour. */
function jsonEntry(e: ResolvedSetting): ResolvedSetting & { cli?: string } {
  const note = cliSettingNote(e.key);
  return note ? { ...e, cli: note } : e;
}

/** Writes config.json whole through a temporary file, so a crash never leaves half a file. */
function writeConfig(storeDir: string, values: Record<string, unknown>): void {
  mkdirSync(storeDir, { recursive: true });
  const path = configFilePath(storeDir);
  writeFileSync(`${path}.tmp`, JSON.stringify(values, null, 2) + '\n', { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** The existing file's keys in their short form (so `agentMemory.x` and `x` never both stay). */
function currentFile(storeDir: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(readConfigObject(storeDir))) out[settingSpecOf(k, configFilePath(storeDir)).key] = v;
  return out;
}

/** Says when a higher layer hides what config.json now holds. */
function shadowNote(args: ParsedArgs, storeDir: string, key: string, io: CliIo): void {
  const e = resolveCliSettings(args, storeDir).entries.find((x) => x.key === key);
  if (e && e.source !== 'config.json' && e.source !== 'default') io.stderr(`agent-memory: note: ${e.source} overrides config.json for ${key} (now ${text(e.value)})\n`);
}

export async function configCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const [sub, ...rest] = args.positionals;
  const storeDir = cliStoreDir(args);
  const json = args.flags.json === true;
  if (sub === 'list' && rest.length === 0) {
    const { entries } = resolveCliSettings(args, storeDir);
    io.stdout(json ? JSON.stringify(entries.map(jsonEntry)) + '\n' : entries.map(line).join(''));
    return 0;
  }
  if (sub === 'get' && rest.length === 1) {
    const key = settingSpecOf(rest[0] as string, 'config get').key;
    const e = resolveCliSettings(args, storeDir).entries.find((x) => x.key === key) as ResolvedSetting;
    io.stdout(json ? JSON.stringify(jsonEntry(e)) + '\n' : line(e));
    return 0;
  }
  if (sub === 'set' && rest.length >= 2) {
    const spec = settingSpecOf(rest[0] as string, 'config set');
    const checked = parseSettingText(spec, rest.slice(1).join(' '));
    if (!checked.ok) throw new MemoryError('E_USAGE', checked.message);
    writeConfig(storeDir, { ...currentFile(storeDir), [spec.key]: checked.value });
    io.stdout(`${spec.key} = ${text(checked.value)}  (config.json; environment variable ${envVarFor(spec.key)})\n`);
    shadowNote(args, storeDir, spec.key, io);
    return 0;
  }
  if (sub === 'unset' && rest.length === 1) {
    const spec = settingSpecOf(rest[0] as string, 'config unset');
    const values = currentFile(storeDir);
    const had = spec.key in values;
    delete values[spec.key];
    if (had) writeConfig(storeDir, values);
    io.stdout(had ? `${spec.key} removed from config.json (default ${text(spec.default)})\n` : `${spec.key} was not set in config.json\n`);
    shadowNote(args, storeDir, spec.key, io);
    return 0;
  }
  throw new MemoryError('E_USAGE', USAGE);
}
