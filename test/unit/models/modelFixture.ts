/** Test helpers: make sure the generated default model exists (the build's stamp makes this cheap). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');
export const USE_LITE_DIR = join(ROOT, 'models', 'use-lite');

let built = false;

/** Runs scripts/buildModel.mjs once per test process (a no-op when the stamp matches). */
export function ensureUseLiteModel(): string {
  if (!built) {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'buildModel.mjs'), '--quiet'], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`buildModel failed: ${r.stderr}`);
    built = true;
  }
  return USE_LITE_DIR;
}
