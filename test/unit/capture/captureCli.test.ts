import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../../../src/cli/args';
import { makeImportCommand } from '../../../src/cli/commands/import';
import { runCli } from '../../../src/cli/run';
import { makeTempDir } from '../helpers/tempDir';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');

interface Io { out: string[]; err: string[]; stdout(s: string): void; stderr(s: string): void }
const io = (): Io => { const o: Io = { out: [], err: [], stdout: (s) => { o.out.push(s); }, stderr: (s) => { o.err.push(s); } }; return o; };

/** The import command without an embedding model or LLM (heuristic extraction only), as in CI. */
const importCmd = makeImportCommand({ embedder: () => undefined, llm: () => undefined });

describe('capture: import and export CLI', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { tmp = makeTempDir('am-capture-cli-'); });
  afterEach(() => { tmp.cleanup(); });

  const runImport = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    const o = io();
    const code = await importCmd(parseArgs(['--store', tmp.dir, ...argv]), o).catch((e: unknown) => { o.err.push((e as Error).message); return -1; });
    return { code, out: o.out.join(''), err: o.err.join('') };
  };
  const cli = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    const o = io();
    const code = await runCli(['--store', tmp.dir, ...argv], o);
    return { code, out: o.out.join(''), err: o.err.join('') };
  };

  it('imports a transcript with --json, then reports it as already known', async () => {
    const first = await runImport(join(FIXTURES, 'claude-session.jsonl'), '--json');
    assert.equal(first.code, 0, first.err);
    const r = JSON.parse(first.out) as { format: string; turns: number; memoriesCreated: number; duplicates: number; sessionKey: string };
    assert.deepEqual([r.format, r.turns, r.memoriesCreated, r.duplicates], ['claude', 7, 4, 0]);
    const again = await runImport(join(FIXTURES, 'claude-session.jsonl'));
    assert.match(again.out, /^imported claude transcript: 7 turn\(s\), 0 new memories, 4 already known \(session import:claude:3f2a9c1e/);
  });

  it('honours --format and --project', async () => {
    const r = await runImport(join(FIXTURES, 'generic.jsonl'), '--format', 'jsonl', '--project', 'webshop', '--no-wait', '--json');
    assert.equal(r.code, 0, r.err);
    const exported = await cli('export', '--project', 'webshop');
    assert.equal(exported.out.trim().split('\n').length, 4);
  });

  it('rejects a bad format, a missing file and a corrupt one with coded errors', async () => {
    await assert.rejects(importCmd(parseArgs(['--store', tmp.dir, 'x.jsonl', '--format', 'csv']), io()), /--format must be vscode, claude, jsonl or mcp-memory/);
    await assert.rejects(importCmd(parseArgs(['--store', tmp.dir, join(tmp.dir, 'missing.jsonl')]), io()), /Cannot read/);
    await assert.rejects(importCmd(parseArgs(['--store', tmp.dir, join(FIXTURES, 'corrupt.jsonl')]), io()), /line 2: not valid JSON/);
    const viaCli = await cli('import');
    assert.equal(viaCli.code, 2);
  });

  it('exports JSONL to a file that ingest reads back, and Markdown to stdout', async () => {
    assert.equal((await runImport(join(FIXTURES, 'vscode-chat-export.json'), '--no-wait')).code, 0);
    const out = join(tmp.dir, 'memories.jsonl');
    const exported = await cli('export', '--out', out);
    assert.equal(exported.code, 0, exported.err);
    assert.match(exported.err, /exported 3 memories to/);
    const other = makeTempDir('am-capture-cli-other-');
    try {
      const o = io();
      const code = await runCli(['--store', other.dir, 'ingest', out, '--no-wait'], o);
      assert.equal(code, 0, o.err.join(''));
      assert.match(o.out.join(''), /"ingested":3,"duplicates":0/);
      const o2 = io();
      await runCli(['--store', other.dir, 'export'], o2);
      assert.equal(o2.out.join(''), readFileSync(out, 'utf8'));
    } finally {
      other.cleanup();
    }
    const md = await cli('export', '--format', 'markdown');
    assert.match(md.out, /^# Agent Memory export\n/);
    assert.match(md.out, /### preference \(1\)/);
    assert.equal((await cli('export', '--format', 'pdf')).code, 2);
  });
});
