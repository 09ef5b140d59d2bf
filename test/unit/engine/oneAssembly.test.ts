import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : tsFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('one composition root, always-migrated stores', () => {
  it('only the engine assembles the feedback loop (benches and tests go through MemoryEngine)', () => {
    const allowed = new Set(['src/core/sessions/feedbackLoop.ts', 'src/core/engine/enginePipeline.ts', 'test/unit/engine/oneAssembly.test.ts']);
    const offenders = ['src', 'test', 'bench'].flatMap((d) => tsFiles(join(ROOT, d)))
      .map((p) => relative(ROOT, p).split('\\').join('/'))
      .filter((p) => !allowed.has(p) && readFileSync(join(ROOT, p), 'utf8').includes('createFeedbackLoop('));
    assert.deepEqual(offenders, []);
  });

  it('asks whether a table exists only while migrating: every store the code sees is fully migrated', () => {
    const offenders = tsFiles(join(ROOT, 'src'))
      .map((p) => relative(ROOT, p).split('\\').join('/'))
      .filter((p) => !p.startsWith('src/core/store/') && !p.endsWith('Migration.ts') && readFileSync(join(ROOT, p), 'utf8').includes('.hasTable('));
    assert.deepEqual(offenders, []);
  });
});
