import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { checkRawArgs } from '../../../src/cli/rawArgs';
import { ManualClock } from '../../../src/core/clock';
import { isMemoryError } from '../../../src/core/errors';
import { readFileBounded, readTextFileBounded } from '../../../src/core/ingest/boundedRead';
import { parseJsonl } from '../../../src/core/ingest/jsonlIngest';
import { canonicalIso } from '../../../src/core/memory/memoryRecords';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { decodeUtf8Strict, findUnstorableChar, invalidUtf8Offset } from '../../../src/core/memory/textValidation';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { makeTempDir } from '../helpers/tempDir';

const invalid = (re: RegExp) => (e: unknown): boolean => isMemoryError(e, 'E_INVALID_INPUT') && re.test((e as Error).message);

describe('input rules: lossless text', () => {
  it('finds NUL and unpaired surrogates, accepts paired ones', () => {
    assert.deepEqual(findUnstorableChar('before\u0000after'), { index: 6, what: 'a NUL character (U+0000)' });
    assert.equal(findUnstorableChar('ab\ud800c')?.index, 2);
    assert.equal(findUnstorableChar('ab\udc00')?.index, 2);
    assert.equal(findUnstorableChar('emoji 😀 ok'), undefined);
  });

  it('refuses a JSON \\u0000 escape and a lone surrogate escape with the line number', () => {
    assert.throws(() => parseJsonl('{"content":"ok"}\n{"content":"before NUL\\u0000after"}'), invalid(/Line 2: 'content' contains a NUL character \(U\+0000\) at character 10/));
    assert.throws(() => parseJsonl('{"content":"lone \\ud800 surrogate"}'), invalid(/Line 1: 'content' contains an unpaired surrogate \(U\+D800\)/));
    assert.throws(() => parseJsonl('{"content":"x","who":"a\\u0000b"}'), invalid(/Line 1: 'who' contains a NUL/));
    assert.throws(() => parseJsonl('{"content":"x","tags":["a\\udfffb"]}'), invalid(/Line 1: a tag contains an unpaired surrogate/));
  });

  it('refuses a raw NUL byte inside a JSON line (JSON forbids control characters in strings)', () => {
    assert.throws(() => parseJsonl('{"content":"before\u0000after"}'), invalid(/Line 1: not valid JSON/));
  });

  it('remember() refuses NUL and lone surrogates in every text field and stores nothing', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    const deps = defaultRememberDeps(clock);
    await assert.rejects(remember(store, { content: 'before\u0000after' }, deps), invalid(/content contains a NUL/));
    await assert.rejects(remember(store, { content: 'fine', sourceId: 'a\ud83dz' }, deps), invalid(/sourceId contains an unpaired surrogate/));
    await assert.rejects(remember(store, { content: 'fine', tags: ['x\u0000'] }, deps), invalid(/a tag contains a NUL/));
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 0);
    const ok = await remember(store, { content: 'emoji 😀 and ünïcödé survive' }, deps);
    assert.equal(store.read((db) => db.get<{ content: string }>('SELECT content FROM memories WHERE id = ?', [ok.id]))?.content, 'emoji 😀 and ünïcödé survive');
  });
});

describe('input rules: strict UTF-8', () => {
  it('gives the byte offset of the first invalid sequence', () => {
    assert.equal(invalidUtf8Offset(Buffer.from('plain ascii')), -1);
    assert.equal(invalidUtf8Offset(Buffer.from('ünï 😀', 'utf8')), -1);
    assert.equal(invalidUtf8Offset(Buffer.from([0x61, 0x62, 0xe9, 0x63])), 2, 'latin-1 é');
    assert.equal(invalidUtf8Offset(Buffer.from([0x61, 0xed, 0xa0, 0x80])), 1, 'a surrogate encoded as three bytes (CESU-8)');
    assert.equal(invalidUtf8Offset(Buffer.from([0xc0, 0xaf])), 0, 'overlong');
    assert.equal(invalidUtf8Offset(Buffer.from([0x61, 0xe2, 0x82])), 1, 'cut short');
    assert.equal(invalidUtf8Offset(Buffer.from([0xf4, 0x90, 0x80, 0x80])), 0, 'beyond U+10FFFF');
  });

  it('decodes strictly: nothing becomes U+FFFD', () => {
    assert.equal(decodeUtf8Strict(Buffer.from('\ufeffhello', 'utf8'), 'x'), 'hello');
    assert.throws(() => decodeUtf8Strict(Buffer.from([0x6f, 0x6b, 0x0a, 0xe9]), 'memories.jsonl'), invalid(/memories\.jsonl is not valid UTF-8 at byte 3/));
  });

  it('refuses a command-line argument whose raw bytes are not UTF-8', () => {
    const tmp = makeTempDir('am-rawargs-');
    try {
      const cmdline = join(tmp.dir, 'cmdline');
      writeFileSync(cmdline, Buffer.concat([Buffer.from('node\0cli.js\0remember\0'), Buffer.from([0x63, 0x61, 0x66, 0xe9]), Buffer.from([0])]));
      assert.throws(() => checkRawArgs(2, cmdline), invalid(/Argument 2 is not valid UTF-8 at byte 3/));
      writeFileSync(cmdline, Buffer.from('node\0cli.js\0remember\0café 😀\0', 'utf8'));
      assert.doesNotThrow(() => checkRawArgs(2, cmdline));
    } finally { tmp.cleanup(); }
  });
});

describe('input rules: dates', () => {
  it('refuses impossible calendar dates and times instead of rolling them over', () => {
    for (const v of ['2026-02-30T00:00:00Z', '2025-02-29T10:00Z', '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-00T00:00:00Z', '2026-01-31T24:00:00Z', '2026-01-31T10:60:00Z', '2026-01-31T10:00:61Z']) {
      assert.throws(() => canonicalIso(v), invalid(/createdAt/), v);
    }
    assert.equal(canonicalIso('2024-02-29T10:00Z'), '2024-02-29T10:00:00.000Z');
    assert.equal(canonicalIso('2026-01-31T09:00:00.123+05:30'), '2026-01-31T03:30:00.123Z');
  });

  it('names the line of an impossible createdAt in a JSONL file', () => {
    assert.throws(() => parseJsonl('{"content":"a"}\n{"content":"b","createdAt":"2026-02-30T00:00:00Z"}'), invalid(/Line 2: 'createdAt' is not a real time/));
  });
});

describe('input rules: bounded readers', () => {
  it('caps /dev/zero (a device that never ends and reports size 0)', () => {
    assert.throws(() => readFileBounded('/dev/zero', 4 << 20), invalid(/larger than the 4194304-byte limit \(or never ends\)/));
  });

  it('reads a small file whole, refuses a folder and a missing file', () => {
    const tmp = makeTempDir('am-bounded-');
    try {
      writeFileSync(join(tmp.dir, 'a.txt'), 'hello');
      assert.equal(readTextFileBounded(join(tmp.dir, 'a.txt'), 5), 'hello');
      assert.throws(() => readTextFileBounded(join(tmp.dir, 'a.txt'), 4), invalid(/larger than the 4-byte limit/));
      assert.throws(() => readFileBounded(tmp.dir, 10), invalid(/is a folder/));
      assert.throws(() => readFileBounded(join(tmp.dir, 'missing'), 10), (e: unknown) => isMemoryError(e, 'E_NOT_FOUND'));
    } finally { tmp.cleanup(); }
  });
});

describe('input rules: the CLI', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { tmp = makeTempDir('am-input-cli-'); });
  afterEach(() => { tmp.cleanup(); });

  const cli = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['--store', join(tmp.dir, 'store'), ...argv], { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } });
    return { code, out: out.join(''), err: err.join('') };
  };
  const count = async (): Promise<number> => (JSON.parse((await cli('stats', '--json')).out) as { memories: number }).memories;

  it('ingest of 250 good lines and one impossible createdAt stores nothing and names the line', async () => {
    const file = join(tmp.dir, 'm.jsonl');
    const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify({ content: `good memory number ${i}` }));
    lines.push(JSON.stringify({ content: 'bad date', createdAt: '2026-02-30T00:00:00Z' }));
    writeFileSync(file, lines.join('\n'));
    const r = await cli('ingest', file, '--no-wait');
    assert.equal(r.code, 1);
    assert.match(r.err, /Line 251: 'createdAt' is not a real time/);
    assert.equal(await count(), 0);
  });

  it('ingest of latin-1 bytes is refused with the byte offset', async () => {
    const file = join(tmp.dir, 'latin1.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from('{"content":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const r = await cli('ingest', file, '--no-wait');
    assert.equal(r.code, 1);
    assert.match(r.err, /is not valid UTF-8 at byte 15/);
  });

  it('ingest and import of /dev/zero fail with a clear size message', async () => {
    const a = await cli('ingest', '/dev/zero', '--no-wait');
    assert.equal(a.code, 1);
    assert.match(a.err, /\/dev\/zero is larger than the 67108864-byte limit \(or never ends\)/);
    const b = await cli('import', '/dev/zero', '--no-wait');
    assert.equal(b.code, 1);
    assert.match(b.err, /\/dev\/zero is larger than the 52428800-byte limit \(or never ends\)/);
  });

  it('unknown flags exit 2 and do not swallow the next argument', async () => {
    const r = await cli('recall', '--bogus', 'x', 'pnpm');
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown option --bogus/);
  });
});
