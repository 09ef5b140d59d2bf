/**
 * The maintenance report's review sections (src/extension/review/reviewText.ts): each conflict as
 * the two memories side by side with their dates and the three answers; each change by name, into
 * what and why, with Undo while its window is open and a plain sentence after.
 */
import { strict as assert } from 'node:assert';
import type { ConflictRecord } from '../../../src/core/consolidation/conflictRecords';
import type { MaintenanceChange } from '../../../src/core/maintenance/maintenanceUndo';
import { changesMarkdown, conflictsMarkdown } from '../../../src/extension/review/reviewText';

const links = { conflict: (id: string, choice: string) => `code-oss://agent-memory.agent-memory/resolve-conflict?id=${id}&choice=${choice}`, undo: (id: string) => `code-oss://x/undo-change?id=${id}` };
const conflict = (patch: Partial<ConflictRecord> = {}): ConflictRecord => ({
  id: 'c-1', reason: 'value change', detail: 'SHORT_BOOK_PAGES', status: 'open', current: 'newer', foundAt: '2026-10-01T00:00:00.000Z', resolvedAt: null,
  older: { id: 'm1', content: 'SHORT_BOOK_PAGES is set to 180 | for now', createdAt: '2026-08-04T10:00:00.000Z' },
  newer: { id: 'm2', content: 'SHORT_BOOK_PAGES is 220 now.', createdAt: '2026-09-18T10:00:00.000Z' }, ...patch,
});
const change = (patch: Partial<MaintenanceChange> = {}): MaintenanceChange => ({
  id: 'ch-1', runId: 'manual:1', task: 'merge-entities', kind: 'entity_merge', subject: 'shelf.server', target: 'shelf/server.py', why: 'a module and its file',
  createdAt: '2026-10-01T00:00:00.000Z', undoUntil: '2026-10-08T00:00:00.000Z', undoneAt: null, undoable: true, ...patch,
});

describe('maintenance report review sections', () => {
  it('lists an open conflict side by side with dates and the three answers', () => {
    const md = conflictsMarkdown([conflict()], links).join('\n');
    assert.match(md, /## Conflicts to resolve/);
    assert.match(md, /\| Older \(2026-08-04\) \| Newer \(2026-09-18\) \|\n\|---\|---\|\n\| SHORT\\_BOOK\\_PAGES is set to 180 \\\| for now \| SHORT\\_BOOK\\_PAGES is 220 now\. \|/);
    assert.match(md, /Now recall treats the newer one as current\. \[Keep newer\]\(code-oss:\/\/agent-memory\.agent-memory\/resolve-conflict\?id=c-1&choice=keep-newer\) · \[Keep older\]\([^)]+choice=keep-older\) · \[Both are true\]\([^)]+choice=both-true\)/);
  });

  it('says how an answered conflict was resolved, and nothing when there are none', () => {
    const md = conflictsMarkdown([conflict({ status: 'keep-older', resolvedAt: '2026-10-02T08:00:00.000Z' })], links).join('\n');
    assert.match(md, /Resolved on 2026-10-02: kept the older one\./);
    assert.match(md, /Every conflict of this run is answered\./);
    assert.doesNotMatch(md, /\[Keep newer\]/);
    assert.deepEqual(conflictsMarkdown([], links), []);
  });

  it('names each change with into what and why, Undo while it can, a sentence once it cannot', () => {
    const rows = [change(), change({ id: 'ch-2', undoable: false, undoneAt: '2026-10-03T00:00:00.000Z' }), change({ id: 'ch-3', undoable: false })];
    const md = changesMarkdown(rows, links).join('\n');
    assert.match(md, /Each can be undone for 7 days/);
    assert.match(md, /- "shelf\.server" merged into "shelf\/server\.py": a module and its file\. \[Undo\]\(code-oss:\/\/x\/undo-change\?id=ch-1\) \(until 2026-10-08\)/);
    assert.match(md, /Undone on 2026-10-03\./);
    assert.match(md, /Can no longer be undone \(the window closed on 2026-10-08\)\./);
  });
});
