import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import { readMemorySettings, settingsDelta } from '../../../src/core/config/memorySettings';
import { formatMemoriesMarkdown } from '../../../src/core/capture/memoryExport';
import type { MemoryRecord } from '../../../src/core/memory/memoryRecords';
import { parseMarkdownMemories } from '../../../src/extension/capture/markdownImport';

const settingsOf = (values: Record<string, unknown>) => readMemorySettings((k) => values[k]);

describe('agentMemory.* settings mapped onto the core configs', () => {
  it('uses the core defaults when nothing is set', () => {
    const s = settingsOf({});
    assert.deepEqual(s.search, DEFAULT_SEARCH_CONFIG);
    assert.equal(s.llm.provider, 'none');
    assert.equal(s.captureEnabled, true);
    assert.equal(s.confirmToolWrites, true);
  });

  it('maps search toggles and weights; an out-of-range value gets the default', () => {
    const s = settingsOf({ 'search.alpha': 7, 'search.vectorEnabled': false, 'search.graphBoostWeight': 0.3, 'search.limit': 0, 'search.temporalPriorHalfLifeDays': 30 });
    assert.equal(s.search.alpha, 0.5);
    assert.equal(s.search.vector.enabled, false);
    assert.equal(s.search.graphBoost.weight, 0.3);
    assert.equal(s.search.limit, 10);
    assert.equal(s.search.temporalPrior.halfLifeDays, 30);
  });

  it('converts seconds and minutes into the core milliseconds', () => {
    const s = settingsOf({ 'llm.timeoutSeconds': 2, 'models.downloadTimeoutSeconds': 10, 'sessions.idleTimeoutMinutes': 5 });
    assert.equal(s.llm.timeoutMs, 60_000, 'below the 5 s minimum: the default');
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

describe('Markdown import of memories', () => {
  const record = (r: Pick<MemoryRecord, 'content' | 'type' | 'createdAt' | 'project' | 'tags' | 'who'>, id: string): MemoryRecord => ({
    id, contentHash: null, importance: 0.5, confidence: 1, sourceId: null, sourceType: null, sessionKey: null, scope: null,
    agentId: 'default', why: null, updatedAt: r.createdAt, lastAccessed: null, accessCount: 0, isDeleted: false, deletedAt: null, extractionStatus: 'none', pinned: false, ...r,
  });
  const records = [
    record({ content: 'We use pnpm.', type: 'preference', createdAt: '2026-01-02T03:04:05.000Z', project: 'shelf', tags: ['tooling'], who: 'ana' }, 'm1'),
    record({ content: 'Notes\n- not a new memory\n## not a heading', type: 'fact', createdAt: '2026-02-03T00:00:00.000Z', project: null, tags: [], who: null }, 'm2'),
  ];

  it('reads the core Markdown export back: content, type, project, day, author and tags', () => {
    const md = formatMemoriesMarkdown({ memories: records, pinned: [{ id: 'e1', name: 'pnpm', pinnedAt: '2026-01-01T00:00:00.000Z' }] }, '2026-03-01T00:00:00.000Z');
    const back = parseMarkdownMemories(md);
    assert.deepEqual(back.map((m) => [m.content, m.type, m.project, m.createdAt, m.who, m.tags]), [
      ['We use pnpm.', 'preference', 'shelf', '2026-01-02T00:00:00.000Z', 'ana', ['tooling']],
      ['Notes\n- not a new memory\n## not a heading', 'fact', undefined, '2026-02-03T00:00:00.000Z', undefined, undefined],
    ]);
  });

  it('hand-written Markdown imports one memory per section', () => {
    const back = parseMarkdownMemories('# Project notes\n\n## Database\nWe use SQLite.\n\n## Deploy\nDocker on Fly.io.\n');
    assert.deepEqual(back.map((m) => m.content), ['Database\nWe use SQLite.', 'Deploy\nDocker on Fly.io.']);
  });

  it('Markdown without headings imports one memory per paragraph', () => {
    assert.deepEqual(parseMarkdownMemories('First fact.\n\nSecond fact\nover two lines.\n').map((m) => m.content), ['First fact.', 'Second fact\nover two lines.']);
  });
});
