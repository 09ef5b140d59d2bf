import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { isMemoryError } from '../../../src/core/errors';
import { contentHash, countMemories, getMemory, insertMemory, normalizeContent } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

const AT = '2026-02-01T10:00:00.000Z';

describe('memory records', () => {
  let store: MemoryStore;
  beforeEach(async () => { store = await openMemoryStore(); });
  afterEach(async () => { await store.close(); });

  it('normalizes case, whitespace and trailing punctuation', () => {
    assert.equal(normalizeContent('  We   Use\r\nTABS!!. '), 'we use tabs');
    assert.equal(normalizeContent('Why?'), 'why');
  });

  it('hashes the normalized text with SHA-256', () => {
    assert.equal(contentHash('We use tabs.'), createHash('sha256').update('we use tabs').digest('hex'));
    assert.equal(contentHash('we  use TABS'), contentHash('We use tabs!'));
    assert.equal(contentHash('?!'), createHash('sha256').update('?!').digest('hex'));
  });

  it('inserts and reads back a memory with its fields', async () => {
    const out = await store.write('remember', (w) => insertMemory(w, { content: ' Prefer pnpm ', type: 'preference', project: 'p1', sessionKey: 's1', tags: ['Tooling', 'js'], createdAt: AT, importance: 0.8 }));
    assert.equal(out.duplicate, false);
    const m = store.read((db) => getMemory(db, out.id));
    assert.ok(m);
    assert.equal(m.content, 'Prefer pnpm');
    assert.equal(m.type, 'preference');
    assert.equal(m.project, 'p1');
    assert.equal(m.sessionKey, 's1');
    assert.deepEqual(m.tags, ['tooling', 'js']);
    assert.equal(m.importance, 0.8);
    assert.equal(m.createdAt, AT);
    assert.equal(m.extractionStatus, 'none');
    assert.equal(m.pinned, false);
  });

  it('dedups by content hash within a project but not across projects', async () => {
    const a = await store.write('r', (w) => insertMemory(w, { content: 'Use tabs.', project: 'p1', createdAt: AT }));
    const b = await store.write('r', (w) => insertMemory(w, { content: 'use   TABS', project: 'p1', createdAt: AT }));
    const c = await store.write('r', (w) => insertMemory(w, { content: 'use tabs', project: 'p2', createdAt: AT }));
    assert.deepEqual(b, { id: a.id, duplicate: true });
    assert.equal(c.duplicate, false);
    assert.equal(store.read((db) => countMemories(db)), 2);
    assert.equal(store.read((db) => countMemories(db, { project: 'p1' })), 1);
  });

  it('dedups by source id before content', async () => {
    const a = await store.write('r', (w) => insertMemory(w, { content: 'first text', sourceId: 'doc-1', sourceType: 'file', createdAt: AT }));
    const b = await store.write('r', (w) => insertMemory(w, { content: 'different text', sourceId: 'doc-1', sourceType: 'file', createdAt: AT }));
    assert.deepEqual(b, { id: a.id, duplicate: true });
  });

  it('does not count or dedup against soft-deleted memories', async () => {
    const a = await store.write('r', (w) => insertMemory(w, { content: 'gone soon', createdAt: AT }));
    await store.write('forget', (w) => w.run('UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE id = ?', [AT, a.id]));
    assert.equal(store.read((db) => countMemories(db)), 0);
    const b = await store.write('r', (w) => insertMemory(w, { content: 'gone soon', createdAt: AT }));
    assert.equal(b.duplicate, false);
    assert.equal(store.read((db) => getMemory(db, a.id))?.isDeleted, true);
  });

  it('rejects empty text, bad times and out-of-range importance', async () => {
    await assert.rejects(store.write('r', (w) => insertMemory(w, { content: '   ', createdAt: AT })), (e) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(store.write('r', (w) => insertMemory(w, { content: 'x', createdAt: 'yesterday' })), (e) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(store.write('r', (w) => insertMemory(w, { content: 'x', createdAt: AT, importance: 2 })), (e) => isMemoryError(e, 'E_INVALID_INPUT'));
    assert.equal(store.read((db) => countMemories(db)), 0);
  });
});
