import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonLines } from '../../../bench/devset';
import { parseJsonl } from '../../../src/core/ingest/jsonlIngest';
import type { DevMemory } from '../../../bench/devset';

const WORKSPACE = join(__dirname, '..', '..', 'fixtures', 'demoWorkspace');
const SEED = join(WORKSPACE, '.agent-memory-seed.jsonl');

describe('devset: demo workspace seed', () => {
  const seed = parseJsonLines<DevMemory>(readFileSync(SEED, 'utf8'), '.agent-memory-seed.jsonl');
  const find = (needle: string): DevMemory => {
    const m = seed.find((x) => x.content.includes(needle));
    assert.ok(m, `no seed memory mentions ${needle}`);
    return m;
  };

  it('holds about 60 ingestable memories with unique ids and ISO dates', () => {
    assert.ok(seed.length >= 50 && seed.length <= 80, `${seed.length} memories`);
    assert.equal(new Set(seed.map((m) => m.sourceId)).size, seed.length);
    for (const m of seed) {
      assert.ok(m.content.trim().length > 0 && m.project === 'shelf', m.sourceId);
      assert.equal(new Date(m.createdAt).toISOString(), m.createdAt, m.sourceId);
    }
  });

  it('is accepted by the JSONL ingest parser the launch script uses', () => {
    assert.equal(parseJsonl(readFileSync(SEED, 'utf8')).length, seed.length);
  });

  it('covers decisions, preferences, constraints, file facts and commands', () => {
    const types = new Set(seed.map((m) => m.type));
    for (const t of ['decision', 'preference', 'constraint', 'fact', 'command', 'bug']) assert.ok(types.has(t as DevMemory['type']), t);
    assert.ok(seed.filter((m) => m.who === 'user').length >= 8);
  });

  it('states each superseded fact before its replacement', () => {
    assert.ok(find('port 8080').createdAt < find('127.0.0.1:4310').createdAt);
    assert.ok(find('single JSON file').createdAt < find('from the JSON file to SQLite').createdAt);
    assert.ok(find('it is set to 180').createdAt < find('SHORT_BOOK_PAGES is 220').createdAt);
  });

  it('only names workspace files that exist', () => {
    const paths = new Set(seed.flatMap((m) => m.content.match(/\b(?:shelf|tests|docs)\/[\w.]+\.(?:py|md)\b/g) ?? []));
    assert.ok(paths.size >= 4);
    for (const p of paths) assert.ok(existsSync(join(WORKSPACE, p)), `${p} is not in the demo workspace`);
  });
});
