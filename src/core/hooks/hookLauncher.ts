import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, posix, win32 } from 'node:path';

/**
 * The hook launcher (docs/agents.md, "A hook command that survives updates"): a small script in the
 * extension's global storage that runs the bundled CLI with Node. Hook configurations written by
 * Memory: Connect Agents… name this script instead of `<extension>/dist/cli.js`, whose versioned
 * folder is deleted when the extension updates. The extension rewrites the script on every
 * activation to name the CLI of the version running now; between an update and the next
 * activation the script itself finds the newest installed version's CLI beside the old folder.
 * When neither is there it says so on stderr and exits 0, so the agent carries on (a hook failure
 * never blocks the agent).
 */

export const LAUNCHER_FOLDER = 'bin';

export function launcherFileName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'agent-memory-hook.cmd' : 'agent-memory-hook';
}

export interface LauncherTarget {
  /** The Node.js that runs the CLI (node on PATH, or the extension host's own when it is Node). */
  readonly node: string;
  /** The bundled CLI of the extension version running now. */
  readonly cliJs: string;
  readonly platform?: NodeJS.Platform;
}

/**
 * Where other installed versions of the extension are: `<extensions>/<publisher.name>-<version>/dist/cli.js`.
 * Undefined when the CLI is not in such a folder (a development checkout): no fallback then.
 */
export function installedVersionsGlob(cliJs: string, platform: NodeJS.Platform = process.platform): { readonly dir: string; readonly prefix: string } | undefined {
  const path = platform === 'win32' ? win32 : posix;
  const folder = path.dirname(path.dirname(cliJs));
  const m = /^([A-Za-z0-9][\w-]*\.[\w-]+?)-\d+\.\d+\.\d+/.exec(path.basename(folder));
  return m?.[1] && path.basename(path.dirname(cliJs)) === 'dist' ? { dir: path.dirname(folder), prefix: m[1] } : undefined;
}

const MESSAGE = 'agent-memory hook launcher: the bundled CLI or Node.js was not found; open VS Code once so Agent Memory rewrites this launcher. The agent carries on without memory.';

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const cmdText = (s: string): string => s.replace(/%/g, '%%');

/** The launcher's text for the platform. */
export function launcherScript(t: LauncherTarget): string {
  const platform = t.platform ?? process.platform;
  const versions = installedVersionsGlob(t.cliJs, platform);
  if (platform === 'win32') {
    return [
      '@echo off',
      'rem Agent Memory hook launcher, rewritten by the extension each time it starts (docs/agents.md).',
      'setlocal',
      `set "AM_NODE=${cmdText(t.node)}"`,
      `set "AM_CLI=${cmdText(t.cliJs)}"`,
      ...(versions ? [`if not exist "%AM_CLI%" for /d %%D in ("${cmdText(win32.join(versions.dir, versions.prefix))}-*") do if exist "%%D\\dist\\cli.js" set "AM_CLI=%%D\\dist\\cli.js"`] : []),
      `if not exist "%AM_CLI%" (echo ${MESSAGE} 1>&2& exit /b 0)`,
      `if not exist "%AM_NODE%" (echo ${MESSAGE} 1>&2& exit /b 0)`,
      '"%AM_NODE%" "%AM_CLI%" %*',
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    '# Agent Memory hook launcher, rewritten by the extension each time it starts (docs/agents.md,',
    '# "A hook command that survives updates"). Hook configurations name this file, not the',
    "# extension's versioned folder.",
    `node=${sq(t.node)}`,
    `cli=${sq(t.cliJs)}`,
    ...(versions ? [
      'if [ ! -f "$cli" ]; then',
      '  # updated but not started since: the newest installed version (by name) still has its CLI',
      `  for c in ${sq(versions.dir)}/${versions.prefix}-*/dist/cli.js; do`,
      '    if [ -f "$c" ]; then cli="$c"; fi',
      '  done',
      'fi',
    ] : []),
    'if [ ! -f "$cli" ] || [ ! -x "$node" ]; then',
    `  echo ${sq(MESSAGE)} >&2`,
    '  exit 0',
    'fi',
    'exec "$node" "$cli" "$@"',
    '',
  ].join('\n');
}

/**
 * Writes the launcher into `<storageDir>/bin/` (atomically, executable), unless it already says
 * exactly that. Returns its path and whether it changed.
 */
export async function writeLauncher(storageDir: string, t: LauncherTarget): Promise<{ readonly path: string; readonly changed: boolean }> {
  const path = join(storageDir, LAUNCHER_FOLDER, launcherFileName(t.platform));
  const text = launcherScript(t);
  const now = await readFile(path, 'utf8').catch(() => undefined);
  if (now === text) return { path, changed: false };
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o755 });
  await chmod(tmp, 0o755);
  await rename(tmp, path);
  return { path, changed: true };
}
