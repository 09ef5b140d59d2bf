/** Generates the tiny BERT-shaped fixture model (NOT a real model) into a temp folder, once per process. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './modelFixture';

let dir: Promise<string> | undefined;

export function tinyBertFixture(): Promise<string> {
  dir ??= (async () => {
    const root = mkdtempSync(join(tmpdir(), 'am-tinybert-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    const out = join(root, 'tiny-bert-fixture');
    const mod = (await import(pathToFileURL(join(ROOT, 'test', 'fixtures', 'models', 'makeTinyBert.mjs')).href)) as { writeTinyBert(out: string): string };
    return mod.writeTinyBert(out);
  })();
  return dir;
}
