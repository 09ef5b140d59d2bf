/** Generates the tiny BERT-shaped fixture model (NOT a real model) into a temp folder, once per process. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './modelFixture';

let dir: Promise<string> | undefined;

export function tinyBertFixture(): Promise<string> {
  dir ??= (async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'am-tinybert-')), 'tiny-bert-fixture');
    const mod = (await import(pathToFileURL(join(ROOT, 'test', 'fixtures', 'models', 'makeTinyBert.mjs')).href)) as { writeTinyBert(out: string): string };
    return mod.writeTinyBert(out);
  })();
  return dir;
}
