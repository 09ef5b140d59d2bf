import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_CAPTURE_CONFIG } from '../../../src/core/config/captureConfig';
import { ingestMemories, parseJsonl } from '../../../src/core/ingest/jsonlIngest';
import { forgetMemory } from '../../../src/core/memory/forget';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { pinEntity } from '../../../src/core/pinning/pinning';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { exportSnapshot, formatExport, formatMemoriesJsonl, formatMemoriesMarkdown } from '../../../src/core/capture/memoryExport';
import { parseTranscript } from '../../../src/core/capture/transcriptFormat';
import { importTranscript } from '../../../src/core/capture/transcriptImport';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');

describe('capture: memory export', () => {
  let clock: ManualClock;
  let store: MemoryStore;
  beforeEach(async () => {
    clock = new ManualClock(Date.parse('2026-11-29T10:00:00Z'));
    store = await openMemoryStore({ clock });
    const deps = defaultRememberDeps(clock);
    await remember(store, { content: 'The orders service talks to PostgreSQL 16.', type: 'fact', project: 'shop', tags: ['db', 'infra'], createdAt: '2026-01-02T03:04:05.000Z' }, deps);
    await remember(store, { content: 'Line one\nline two with "quotes" and a \\ backslash', createdAt: '2026-01-03T00:00:00.000Z', who: 'me' }, deps);
    await remember(store, { content: 'Deploys happen on Fridays.', type: 'decision', project: 'shop', sourceId: 'doc-7', sessionKey: 's-1', createdAt: '2026-01-04T00:00:00.000Z' }, deps);
    await importTranscript(store, parseTranscript(readFileSync(join(FIXTURES, 'claude-session.jsonl'), 'utf8')), { remember: deps, capture: DEFAULT_CAPTURE_CONFIG });
  });
  afterEach(async () => { await store.close(); });

  it('round-trips through ingest: export, ingest into a new store, export again gives the same JSONL', async () => {
    const first = formatMemoriesJsonl(store.read((db) => exportSnapshot(db)).memories);
    assert.equal(first.trim().split('\n').length, 7);
    const other = await openMemoryStore({ clock });
    try {
      const r = await ingestMemories(other, parseJsonl(first), defaultRememberDeps(clock));
      assert.deepEqual([r.ingested, r.duplicates], [7, 0]);
      assert.equal(formatMemoriesJsonl(other.read((db) => exportSnapshot(db)).memories), first);
    } finally {
      await other.close();
    }
  });

  it('leaves null fields out of the ingest lines and keeps ids of sources, sessions and tags', () => {
    const lines = formatMemoriesJsonl(store.read((db) => exportSnapshot(db)).memories).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[0], { content: 'The orders service talks to PostgreSQL 16.', type: 'fact', createdAt: '2026-01-02T03:04:05.000Z', project: 'shop', tags: ['db', 'infra'] });
    assert.deepEqual(lines[2], { content: 'Deploys happen on Fridays.', type: 'decision', sourceId: 'doc-7', createdAt: '2026-01-04T00:00:00.000Z', sessionId: 's-1', project: 'shop' });
  });

  it('exports only live memories', async () => {
    const id = store.read((db) => db.get<{ id: string }>("SELECT id FROM memories WHERE content LIKE 'Deploys%'"))?.id as string;
    await forgetMemory(store, id, clock);
    assert.ok(!formatExport(store.read((db) => exportSnapshot(db)), 'jsonl', '').includes('Fridays'));
  });

  it('filters by project', () => {
    const snap = store.read((db) => exportSnapshot(db, { project: 'shop' }));
    assert.ok(snap.memories.length > 0 && snap.memories.every((m) => m.project === 'shop'));
  });

  it('writes Markdown grouped by project then type, with the pinned entities first and no project last', async () => {
    await store.write('test', (db) => {
      db.run("INSERT INTO entities (id, name, canonical_name, entity_type, agent_id, mentions, created_at, updated_at) VALUES ('e1', 'PostgreSQL', 'postgresql', 'technology', 'default', 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')");
      pinEntity(db, 'default', 'PostgreSQL', '2026-11-28T00:00:00.000Z');
    });
    const md = formatMemoriesMarkdown(store.read((db) => exportSnapshot(db)), '2026-11-29T10:00:00.000Z');
    const headings = md.split('\n').filter((l) => l.startsWith('#'));
    assert.deepEqual(headings, ['# Agent Memory export', '## Pinned entities', '## Project: shop', '### constraint (2)', '### decision (2)', '### fact (1)', '### session_summary (1)', '## No project', '### fact (1)']);
    assert.match(md, /- \*\*PostgreSQL\*\* \(pinned 2026-11-28\)/);
    assert.match(md, /- Line one\n {2}line two with "quotes"/);
    assert.match(md, /7 memories, exported 2026-11-29T10:00:00.000Z\./);
    assert.match(md, /#db #infra/);
  });

  it('says so when nothing is pinned', () => {
    assert.match(formatMemoriesMarkdown({ memories: [], pinned: [] }, 'now'), /## Pinned entities\n\n_None\._/);
  });
});
