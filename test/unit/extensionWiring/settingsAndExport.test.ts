import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import { readMemorySettings, settingsDelta } from '../../../src/extension/config/memorySettings';
import { MARKDOWN_MARKER, parseMarkdown, toJsonl, toMarkdown } from '../../../src/extension/io/memoryExport';
import type { ExportedMemory } from '../../../src/extension/io/memoryExport';
import { parseJsonl } from '../../../src/core/ingest/jsonlIngest';

const settingsOf = (values: Record<string, unknown>) => readMemorySettings((k) => values[k]);

describe('agentMemory.* settings mapped onto the core configs', () => {
  it('uses the core defaults when nothing is set', () => {
    const s = settingsOf({});
    assert.deepEqual(s.search, DEFAULT_SEARCH_CONFIG);
    assert.equal(s.llm.provider, 'none');
    assert.equal(s.captureEnabled, true);
    assert.equal(s.confirmToolWrites, true);
  });

  it('maps search toggles and weights, clamping out-of-range values', () => {
    const s = settingsOf({ 'search.alpha': 7, 'search.vectorEnabled': false, 'search.graphBoostWeight': 0.3, 'search.limit': 0, 'search.temporalPriorHalfLifeDays': 30 });
    assert.equal(s.search.alpha, 1);
    assert.equal(s.search.vector.enabled, false);
    assert.equal(s.search.graphBoost.weight, 0.3);
    assert.equal(s.search.limit, 1);
    assert.equal(s.search.temporalPrior.halfLifeDays, 30);
  });

  it('converts seconds and minutes into the core milliseconds', () => {
    const s = settingsOf({ 'llm.timeoutSeconds': 2, 'models.downloadTimeoutSeconds': 10, 'sessions.idleTimeoutMinutes': 5 });
    assert.equal(s.llm.timeoutMs, 5_000, 'clamped to the 5 s minimum');
    assert.equal(s.models.downloadTimeoutMs, 10_000);
    assert.equal(s.feedbackLoop.session?.idleTimeoutMs, 300_000);
  });

  it('ignores an unknown LLM provider instead of guessing', () => {
    assert.equal(settingsOf({ 'llm.provider': 'magic' }).llm.provider, 'none');
  });

  it('tells which part of the runtime a change touches', () => {
    const base = settingsOf({});
    assert.deepEqual(settingsDelta(base, settingsOf({ 'search.alpha': 0.5 })), { store: false, pipeline: false, llm: false });
    assert.deepEqual(settingsDelta(base, settingsOf({ 'store.path': '/tmp/x' })), { store: true, pipeline: false, llm: false });
    assert.deepEqual(settingsDelta(base, settingsOf({ 'models.embedBatchSize': 8 })), { store: false, pipeline: true, llm: false });
    assert.deepEqual(settingsDelta(base, settingsOf({ 'llm.provider': 'vscode' })), { store: false, pipeline: true, llm: true });
  });

  it('declares every setting it reads in package.json with a default and a description', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default?: unknown; description?: string; markdownDescription?: string }> }[] } };
    const props = pkg.contributes.configuration[0]?.properties ?? {};
    const read = new Set<string>();
    readMemorySettings((k) => { read.add(k); return undefined; });
    for (const k of read) {
      const p = props[`agentMemory.${k}`];
      assert.ok(p, `agentMemory.${k} is read but not contributed`);
      assert.ok('default' in p && (p.description || p.markdownDescription), `agentMemory.${k} lacks a default or description`);
    }
  });
});

describe('memory export and import formats', () => {
  const memories: ExportedMemory[] = [
    { content: 'We use pnpm.', type: 'preference', createdAt: '2026-01-02T03:04:05.000Z', project: 'shelf', tags: ['tooling'] },
    { content: 'Notes\n## not a heading of the export\n-- with dashes --', type: 'fact', createdAt: '2026-02-03T00:00:00.000Z', sourceId: 'https://example.com/a' },
  ];

  it('JSONL export reads back through the ingest parser', () => {
    const back = parseJsonl(toJsonl(memories));
    assert.deepEqual(back.map((m) => [m.content, m.type, m.createdAt, m.project]), memories.map((m) => [m.content, m.type, m.createdAt, m.project]));
  });

  it('Markdown export round-trips content that contains headings and comment dashes', () => {
    const md = toMarkdown(memories);
    assert.ok(md.includes(MARKDOWN_MARKER));
    const back = parseMarkdown(md);
    assert.deepEqual(back.map((m) => m.content), memories.map((m) => m.content));
    assert.equal(back[1]?.sourceId, 'https://example.com/a');
    assert.deepEqual(back[0]?.tags, ['tooling']);
  });

  it('hand-written Markdown imports one memory per section', () => {
    const back = parseMarkdown('# Project notes\n\n## Database\nWe use SQLite.\n\n## Deploy\nDocker on Fly.io.\n');
    assert.deepEqual(back.map((m) => m.content), ['Database\nWe use SQLite.', 'Deploy\nDocker on Fly.io.']);
  });

  it('reports a damaged metadata comment with its line number', () => {
    assert.throws(() => parseMarkdown(`# x\n${MARKDOWN_MARKER}\n\n## fact · 2026\n<!-- {"lines": 0} -->\ntext\n`), /Line 5: the metadata comment needs a positive "lines" count/);
  });
});
