import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { isMemoryError } from '../../../src/core/errors';
import { ingestMemories, parseJsonl, parseJsonlLine } from '../../../src/core/ingest/jsonlIngest';
import { defaultRememberDeps } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';

describe('JSONL ingest', () => {
  it('maps every documented field', () => {
    assert.deepEqual(parseJsonlLine('{"content":"x","type":"decision","sourceId":"s","createdAt":"2025-01-01T00:00:00Z","sessionId":"k","who":"me","project":"p","tags":["a"]}', 1),
      { content: 'x', type: 'decision', sourceId: 's', createdAt: '2025-01-01T00:00:00Z', sessionKey: 'k', who: 'me', project: 'p', tags: ['a'] });
  });

  it('names the line of bad JSON, a missing content, an unknown field or a wrong type', () => {
    const cases: [string, RegExp][] = [['{oops', /Line 2: not valid JSON/], ['{"type":"x"}', /Line 2: 'content'/], ['{"content":"x","extra":1}', /Line 2: unknown field 'extra'/],
      ['{"content":"x","tags":"a"}', /Line 2: 'tags'/], ['[1]', /Line 2: expected a JSON object/]];
    for (const [line, re] of cases) {
      assert.throws(() => parseJsonl(`{"content":"ok"}\n${line}\n`), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && re.test((e as Error).message), line);
    }
  });

  it('skips blank lines and CRLF endings', () => {
    assert.equal(parseJsonl('{"content":"a"}\r\n\r\n{"content":"b"}\n').length, 2);
  });

  it('writes in batches, counting duplicates', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    const inputs = parseJsonl(Array.from({ length: 250 }, (_, i) => JSON.stringify({ content: `memory number ${i % 200}` })).join('\n'));
    const r = await ingestMemories(store, inputs, defaultRememberDeps(clock));
    assert.deepEqual([r.ingested, r.duplicates, r.ids.length], [200, 50, 200]);
  });

  it('refuses an invalid createdAt while parsing, before anything is written', () => {
    assert.throws(() => parseJsonl('{"content":"a"}\n{"content":"b","createdAt":"soon"}'), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /Line 2: 'createdAt'/.test((e as Error).message));
  });

  it('rolls a failing batch back whole and says exactly what earlier batches committed', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    const inputs = Array.from({ length: 150 }, (_, i) => ({ content: `memory number ${i}`, ...(i === 120 ? { createdAt: 'soon' } : {}) }));
    await assert.rejects(ingestMemories(store, inputs, defaultRememberDeps(clock)),
      (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /^Memory 121: .*Memories 1 to 100 were stored \(100 new, 0 already known\); nothing from memory 101 on was\./.test((e as Error).message));
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 100);
    const bad = Array.from({ length: 2 }, (_, i) => ({ content: `other ${i}`, ...(i === 1 ? { createdAt: 'soon' } : {}) }));
    await assert.rejects(ingestMemories(store, bad, defaultRememberDeps(clock)), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /^Memory 2: createdAt/.test((e as Error).message));
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 100, 'the failing first batch is rolled back as a whole');
  });
});
