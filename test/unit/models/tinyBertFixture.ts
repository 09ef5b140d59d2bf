/** Generates the tiny BERT-shaped fixture model (NOT a real model) into a temp folder, once per process. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './modelFixture';

let dir: Promise<string> | undefined;
let root: string | undefined;

// A root-level hook (this module is loaded with the test files): the fixture goes when the whole
// run ends, before the unit runner checks its temp folder for leftovers (scripts/tempGuard.cjs).
after(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
  dir = undefined;
});

export function tinyBertFixture(): Promise<string> {
  dir ??= (async () => {
    root = mkdtempSync(join(tmpdir(), 'am-tinybert-'));
    const out = join(root, 'tiny-bert-fixture');
    const mod = (await import(pathToFileURL(join(ROOT, 'test', 'fixtures', 'models', 'makeTinyBert.mjs')).href)) as { writeTinyBert(out: string): string };
    return mod.writeTinyBert(out);
  })();
  return dir;
}
