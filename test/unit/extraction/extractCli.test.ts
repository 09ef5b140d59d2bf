import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from '../../../src/cli/args';
import { makeExtractCommand } from '../../../src/cli/commands/extract';
import { makeIngestCommand } from '../../../src/cli/commands/ingest';
import { runCli } from '../../../src/cli/run';
import type { CliIo } from '../../../src/cli/run';

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } };
}

const TEXT = 'We moved the API from JS to TypeScript and deploy it on k8s with nginx on Fridays.';

describe('extract CLI', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'am-extract-cli-')); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

  it('prints {entities: [{name, type}], relations, facts} with --json, aliases resolved and no weekday', async () => {
    const o = io();
    assert.equal(await runCli(['extract', '--json', TEXT], o), 0, o.err.join(''));
    const r = JSON.parse(o.out.join('')) as { entities: { name: string; type: string }[]; relations: { from: string; to: string; type: string }[]; facts: unknown[] };
    const names = r.entities.map((e) => e.name);
    for (const n of ['API', 'JavaScript', 'TypeScript', 'Kubernetes', 'nginx']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    assert.ok(!names.some((n) => /^fridays?$/i.test(n)));
    assert.deepEqual(Object.keys(r.entities[0] ?? {}).sort(), ['name', 'type']);
    assert.ok(r.relations.some((x) => x.from === 'TypeScript' && x.to === 'JavaScript' && x.type === 'replaces'));
    assert.ok(r.facts.length >= 1);
  });

  it('extracts exactly what ingest writes to the graph', async () => {
    const o = io();
    await runCli(['extract', '--json', TEXT], o);
    const extracted = (JSON.parse(o.out.join('')) as { entities: { name: string; type: string }[] }).entities.map((e) => `${e.name}:${e.type}`).sort();
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, JSON.stringify({ content: TEXT }) + '\n');
    const i = io();
    assert.equal(await makeIngestCommand({ embedder: () => undefined, llm: () => undefined })(parseArgs(['--store', dir, file]), i), 0, i.err.join(''));
    const e = io();
    assert.equal(await runCli(['--store', dir, 'entities', '--json'], e), 0);
    const stored = (JSON.parse(e.out.join('')) as { name: string; type: string }[]).map((x) => `${x.name}:${x.type}`).sort();
    assert.deepEqual(stored, extracted);
  });

  it('--stdin answers one JSON line per request line, in order, with errors in place', async () => {
    const input = [JSON.stringify({ text: 'Caroline: I adopted a dog.', who: 'Caroline' }), '', JSON.stringify({ text: 'We use Postgres.', who: 'Melanie' }), 'not json', JSON.stringify({ text: 3 }), JSON.stringify({ text: 'x', extra: 1 })].join('\n');
    const o = io();
    const code = await makeExtractCommand({ input: () => Readable.from([input]) })(parseArgs(['--stdin']), o);
    assert.equal(code, 0);
    const lines = o.out.join('').trim().split('\n').map((l) => JSON.parse(l) as { entities?: { name: string; type: string }[]; error?: { code: string; message: string } });
    assert.equal(lines.length, 5);
    assert.deepEqual(lines[0]?.entities, [{ name: 'Caroline', type: 'person' }]);
    assert.deepEqual(lines[1]?.entities?.map((e) => `${e.name}:${e.type}`).sort(), ['Melanie:person', 'PostgreSQL:tool']);
    assert.equal(lines[2]?.error?.code, 'E_INVALID_INPUT');
    assert.match(lines[3]?.error?.message ?? '', /"text" must be a string/);
    assert.match(lines[4]?.error?.message ?? '', /Unknown field 'extra'/);
  });

  it('exits 2 with a usage message without text, or with text and --stdin', async () => {
    const a = io();
    assert.equal(await runCli(['extract'], a), 2);
    assert.match(a.err.join(''), /extract needs text/);
    const b = io();
    assert.equal(await runCli(['extract', '--stdin', 'hello'], b), 2);
  });

  it('prints a readable list without --json', async () => {
    const o = io();
    assert.equal(await runCli(['extract', 'Maybe on Friday.'], o), 0);
    assert.equal(o.out.join(''), 'No entities.\n');
    const p = io();
    assert.equal(await runCli(['extract', 'We use Redis.'], p), 0);
    assert.match(p.out.join(''), /^Redis \(tool\)$/m);
  });
});
