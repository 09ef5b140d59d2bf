import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(__dirname, '..', '..', '..');
const built = new Map<string, string>();

/**
 * Bundles a TypeScript child script under test/ once per test run into .cache/test/ (inside the
 * repo, so the WASM engine resolves from node_modules). A bundled child starts in ~0.2 s instead
 * of ~1 s through tsx, which keeps the 20-round crash test fast.
 */
export function bundleChild(script: string): string {
  const cached = built.get(script);
  if (cached) return cached;
  const outDir = join(ROOT, '.cache', 'test');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${script.replace(/[^A-Za-z0-9]+/g, '_')}.js`);
  buildSync({ entryPoints: [join(ROOT, script)], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, external: ['fts5-sql-bundle', 'pg-native'], logLevel: 'error' });
  // The bundled extractor reads the tagger weights from beside the bundle, as dist/ has them (esbuild.mjs).
  copyFileSync(join(ROOT, 'src', 'core', 'extraction', 'entityTaggerWeights.json'), join(outDir, 'entityTaggerWeights.json'));
  built.set(script, outfile);
  return outfile;
}

export interface ChildRun {
  readonly child: ChildProcess;
  readonly lines: string[];
  stderr(): string;
  readonly exited: Promise<number | null>;
}

/** Spawns a bundled child script with arguments, collecting its stdout lines and stderr. */
export function spawnChild(script: string, args: readonly string[], env?: NodeJS.ProcessEnv): ChildRun {
  const child = spawn(process.execPath, [bundleChild(script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    partial += d.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.on('data', (d: Buffer) => { err += d.toString('utf8'); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => err, exited };
}

/** Resolves once `predicate(lines)` holds, polling every 5 ms (rejects after timeoutMs). */
export async function waitFor(lines: string[], predicate: (lines: string[]) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate(lines)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; last lines: ${lines.slice(-3).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
