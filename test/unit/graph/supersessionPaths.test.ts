/**
 * Every path that supersedes a memory or a claim reaches the attributes and claims derived from it
 * (issue #27, "Current facts first, history kept"): one row per path, the same memories, the same
 * checks on the entity's attributes, the memories' claim rows and the Knowledge panel's note.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';
import { applyGraphOp } from '../../../src/core/graph/graphApply';
import type { GraphOp } from '../../../src/core/graph/graphApply';
import { softDeleteMemory } from '../../../src/core/memory/forget';
import { readEntityDetail } from '../../../src/extension/knowledge/entityViews';
import { graphFixture } from './graphFixture';
import type { GraphFixture } from './graphFixture';

const DAY = 86_400_000;
const OLD = 'SHORT_BOOK_PAGES in shelf/recommend.py is the page threshold for a short book; it is set to 180.';
const NEW = 'The short-book threshold was raised: SHORT_BOOK_PAGES is 220 now, because most short novels are around 200 pages.';

interface Row { id: string; content: string; status: string; memory_id: string | null; entity_id: string | null }

interface Case {
  readonly path: string;
  /** Supersedes something after both memories are extracted; returns nothing. */
  run(f: GraphFixture, m: { older: string; newer: string }): Promise<void>;
  /** Expected status of the older and the newer memory's entity attributes. */
  readonly older: 'active' | 'superseded';
  readonly newer: 'active' | 'superseded';
  /** Expected status of the memories' own claim rows (undefined: none written by this path). */
  readonly claims?: { older: string; newer: string };
  /** The current value the entity detail's note names, and the history it lists. */
  readonly note?: RegExp;
}

const op = (f: GraphFixture, o: GraphOp, actor = 'test') => f.store.write('t', (db) => applyGraphOp(db, f.ctx(actor), o));
const rows = (f: GraphFixture, memoryId: string, entity: boolean): Row[] => f.store.read((db) => db.all<Row>(
  `SELECT id, content, status, memory_id, entity_id FROM entity_attributes WHERE memory_id = ? AND entity_id IS ${entity ? 'NOT ' : ''}NULL`, [memoryId]));

const CASES: readonly Case[] = [
  {
    path: 'same claim slot on write (heuristic value claim: SHORT_BOOK_PAGES = 220 after = 180)',
    run: async () => undefined,
    older: 'superseded', newer: 'active', note: /^220 since 2026-01-02; was 180 \(2026-01-01\)$/,
  },
  {
    path: 'memory-level supersession without a model (supersede_memory from the extract job)',
    run: async (f, m) => {
      // As for a decision change, where no claim slot did it on write: the path itself must reach the attributes.
      await f.store.write('t', (db) => db.run("UPDATE entity_attributes SET status = 'active', superseded_by = NULL WHERE memory_id = ?", [m.older]));
      await op(f, { op: 'supersede_memory', olderId: m.older, newerId: m.newer, why: 'value_change: SHORT_BOOK_PAGES' }, 'extractor:heuristic');
    },
    older: 'superseded', newer: 'active', claims: { older: 'superseded', newer: 'active' },
  },
  {
    path: 'a language model\'s semantic contradiction (supersede_attribute)',
    run: async (f, m) => {
      // The model judged an attribute of the older memory replaced by one of the newer (same aspect and group).
      await f.store.write('t', (db) => db.run("UPDATE entity_attributes SET status = 'active', superseded_by = NULL WHERE memory_id = ?", [m.older]));
      const [o] = rows(f, m.older, true);
      const [n] = rows(f, m.newer, true);
      await op(f, { op: 'supersede_attribute', attributeId: o!.id, supersededBy: n!.id, why: 'semantic contradiction' }, 'extractor:llm');
    },
    older: 'superseded', newer: 'active',
  },
  {
    path: 'a conflict resolved by a person: keep older (supersede_memory by the user, newer superseded)',
    run: async (f, m) => {
      await f.store.write('t', (db) => db.run("UPDATE entity_attributes SET status = 'active', superseded_by = NULL WHERE memory_id = ?", [m.older]));
      await op(f, { op: 'supersede_memory', olderId: m.newer, newerId: m.older, why: 'conflict resolved: keep older', byUser: true }, 'user');
    },
    older: 'active', newer: 'superseded', claims: { older: 'active', newer: 'superseded' },
  },
  {
    path: 'marked wrong or outdated (soft delete, then status propagation)',
    run: async (f, m) => { await softDeleteMemory(f.store, m.newer, f.clock); },
    // The newer claim is gone, so the older one is the only value left; it stays superseded in the slot.
    older: 'superseded', newer: 'superseded',
  },
  {
    path: 'an explicit supersede_claim (a person edits the value)',
    run: async (f, m) => {
      const [n] = rows(f, m.newer, true);
      await op(f, { op: 'supersede_claim', attributeId: n!.id, content: 'SHORT_BOOK_PAGES = 250' }, 'user');
    },
    older: 'superseded', newer: 'superseded', note: /^250 since .*; was 220 \(2026-01-02\), before that 180 \(2026-01-01\)$/,
  },
];

describe('supersession reaches attributes and claims from every superseding path', () => {
  for (const c of CASES) {
    it(c.path, async () => {
      const f = await graphFixture();
      const t0 = f.clock.now();
      const older = await f.memory(OLD, t0);
      const newer = await f.memory(NEW, t0 + DAY);
      for (const m of [older, newer]) {
        const text = m === older ? OLD : NEW;
        await op(f, { op: 'apply_extraction', sources: [m], payload: heuristicExtract(text, DEFAULT_EXTRACTION_CONFIG, undefined, { memoryType: 'fact' }), origin: 'heuristic' }, 'extractor:heuristic');
      }
      await c.run(f, { older, newer });
      const olderRows = rows(f, older, true);
      const newerRows = rows(f, newer, true);
      assert.ok(olderRows.length && newerRows.length, 'both memories produced entity attributes');
      assert.deepEqual([...new Set(olderRows.map((r) => r.status))], [c.older], 'older memory attributes');
      assert.deepEqual([...new Set(newerRows.map((r) => r.status))], [c.newer], 'newer memory attributes');
      if (c.claims) {
        assert.deepEqual([rows(f, older, false)[0]?.status, rows(f, newer, false)[0]?.status], [c.claims.older, c.claims.newer], 'memory claim rows');
      }
      const entity = f.store.read((db) => db.get<{ id: string }>("SELECT id FROM entities WHERE canonical_name = 'short_book_pages'"));
      const detail = f.store.read((db) => readEntityDetail(db, 'default', entity!.id, () => null));
      const config = detail?.aspects.find((a) => a.name === 'configuration');
      assert.ok(config, 'the value claims sit in the configuration aspect');
      if (c.note) {
        const current = config.attributes.filter((a) => a.status === 'active');
        assert.equal(current.length, 1, 'one current value');
        assert.match(current[0]!.currentnessNote ?? '', c.note);
      }
      for (const a of config.attributes.filter((x) => x.status === 'superseded')) assert.match(a.currentnessNote ?? '', /^Was current from 2026-01-0[12]/);
      await f.store.close();
    });
  }
});
