import * as assert from 'node:assert/strict';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { memoryVectors, vectorToBlob } from '../../../src/core/models/vectorStore';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlParams, SqlWriter } from '../../../src/core/store/storeTypes';
import { applyPulled } from '../../../src/core/team/teamApply';
import type { ApplyDeps, IncomingRow } from '../../../src/core/team/teamApply';
import { readTeamState } from '../../../src/core/team/teamState';

const T = '2026-11-01T00:00:00.000Z';
const clock = new ManualClock(Date.parse('2026-11-29T12:00:00Z'));
const MODEL = 'bulk-model';
const deps: ApplyDeps = { clock, jobs: DEFAULT_JOBS_CONFIG, embeddingModelId: MODEL, extract: true };

function vec(i: number, dims = 8): Float32Array {
  const v = new Float32Array(dims);
  v[i % dims] = 1;
  v[(i + 3) % dims] = 0.5;
  return v;
}

function row(id: string, seq: number, content: string, extra: Partial<IncomingRow> = {}): IncomingRow {
  return {
    id, seq, author: 'alice', content, project: 'web', type: 'decision', content_hash: `h-${id}`, tags: 'Infra, db ', importance: 0.8, confidence: 0.9,
    created_at: T, deleted: false, model_id: null, dimensions: null, vector: null, ...extra,
  };
}

/** A writer that counts the data-changing statements it runs (each is one journal entry). */
function counting(w: SqlWriter, counter: { runs: number }): SqlWriter {
  return {
    get: (sql, params) => w.get(sql, params),
    all: (sql, params) => w.all(sql, params),
    run: (sql: string, params?: SqlParams) => { counter.runs++; return w.run(sql, params); },
  } as SqlWriter;
}

describe('applying a pulled page of new replicas in multi-row statements', () => {
  let store: MemoryStore;
  beforeEach(async () => { store = await openMemoryStore({ clock }); });
  afterEach(async () => { await store.close(); });

  it('inserts memories, shares, vectors of the local model (both layouts) and jobs; a fixed number of statements however many rows', async () => {
    const page: IncomingRow[] = [];
    for (let i = 0; i < 60; i++) {
      const layout = i % 2 === 0 ? 'int8' : 'float32';
      page.push(row(`r${i}`, i + 1, `Replica number ${i} about the build cache.`, i % 3 === 2 ? {} : { model_id: MODEL, dimensions: 8, vector: vectorToBlob(vec(i), layout) }));
    }
    page.push(row('other-model', 61, 'A memory embedded by another model.', { model_id: 'other', dimensions: 8, vector: vectorToBlob(vec(1)) }));
    page.push(row('bad-vector', 62, 'A memory whose vector has a length no layout fits.', { model_id: MODEL, dimensions: 8, vector: new Uint8Array(5) }));
    const counter = { runs: 0 };
    const summary = await store.write('team.pull', (w) => applyPulled(counting(w, counter), page, deps));
    assert.deepEqual(summary, { inserted: 62, updated: 0, forgotten: 0, vectorsReused: 40, skipped: 0, notHeld: 0 });
    assert.ok(counter.runs <= 8, `${counter.runs} statements for 62 rows`);
    store.read((db) => {
      const m = db.get<Record<string, unknown>>("SELECT type, who, source_type, source_id, tags, importance, confidence, extraction_status, embedding_model, created_at FROM memories WHERE id = 'r0'");
      assert.deepEqual({ ...m, importance: Math.round((m?.importance as number) * 100) / 100, confidence: Math.round((m?.confidence as number) * 100) / 100 }, {
        type: 'decision', who: 'alice', source_type: 'team', source_id: 'team:r0', tags: 'infra,db', importance: 0.8, confidence: 0.9,
        extraction_status: 'pending', embedding_model: MODEL, created_at: T,
      });
      assert.equal(db.get<{ n: number }>("SELECT COUNT(*) AS n FROM team_shares WHERE origin = 'remote' AND state = 'shared' AND local_id IS NULL")?.n, 62);
      const vectors = memoryVectors(db, MODEL, ['r0', 'r1', 'r2']);
      assert.deepEqual([...vectors.keys()].sort(), ['r0', 'r1'], 'r2 came without a vector');
      const r1 = vectors.get('r1') as Float32Array;
      assert.ok(Math.abs((r1[1] as number) - 1) < 1e-6, 'the float32 layout is stored as it came');
      const jobs = db.all<{ job_type: string; n: number }>("SELECT job_type, COUNT(*) AS n FROM memory_jobs WHERE status = 'pending' GROUP BY job_type ORDER BY job_type");
      // Embed jobs for the 22 rows without a usable vector (20 without, other model, bad length); extraction for all 62.
      assert.deepEqual(jobs.map((j) => [j.job_type, j.n]), [['embed', 22], ['extract', 62]]);
      assert.equal(readTeamState(db).cursor, 62);
      const fts = db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memories_fts WHERE memories_fts MATCH 'replica'");
      assert.equal(fts?.n, 60, 'the FTS index follows the multi-row insert');
    });
    // The same page again (a retry after a crash before the cursor was seen) changes nothing.
    const again = await store.write('team.pull', (w) => applyPulled(w, page, deps));
    assert.deepEqual(again, { inserted: 0, updated: 0, forgotten: 0, vectorsReused: 0, skipped: 62, notHeld: 0 });
  });

  it('merges into an existing memory with the same text, and into an earlier row of the same page, as insertMemory would', async () => {
    await store.write('seed', (w) => { insertMemory(w, { id: 'mine', content: 'The API server uses PostgreSQL 15.', project: 'web', createdAt: T }); });
    const page = [
      row('dup-of-mine', 1, 'The API server uses PostgreSQL 15.'),
      row('first', 2, 'Deploys happen on Tuesdays.'),
      row('second', 3, 'Deploys happen on Tuesdays.'),
      row('other-project', 4, 'Deploys happen on Tuesdays.', { project: 'mobile' }),
      row('empty', 5, '   '),
      row('tombstone-unknown', 6, '', { deleted: true }),
    ];
    const summary = await store.write('team.pull', (w) => applyPulled(w, page, deps));
    assert.deepEqual(summary, { inserted: 2, updated: 0, forgotten: 0, vectorsReused: 0, skipped: 4, notHeld: 0 });
    store.read((db) => {
      const shares = db.all<{ memory_id: string; local_id: string | null }>('SELECT memory_id, local_id FROM team_shares ORDER BY memory_id');
      assert.deepEqual(shares.map((s) => [s.memory_id, s.local_id]), [['dup-of-mine', 'mine'], ['first', null], ['other-project', null], ['second', 'first']]);
      assert.deepEqual(db.all<{ id: string }>('SELECT id FROM memories ORDER BY id').map((r) => r.id), ['first', 'mine', 'other-project']);
    });
  });

  it('a page mixing new replicas with an update and a tombstone of known replicas applies each', async () => {
    await store.write('team.pull', (w) => applyPulled(w, [row('a', 1, 'Alpha note.'), row('b', 2, 'Beta note.')], deps));
    const summary = await store.write('team.pull', (w) => applyPulled(w, [
      row('a', 3, 'Alpha note, revised.'), row('b', 4, '', { deleted: true }), row('c', 5, 'Gamma note.'),
    ], deps));
    assert.deepEqual(summary, { inserted: 1, updated: 1, forgotten: 1, vectorsReused: 0, skipped: 0, notHeld: 0 });
    store.read((db) => {
      assert.equal(db.get<{ content: string }>("SELECT content FROM memories WHERE id = 'a'")?.content, 'Alpha note, revised.');
      assert.equal(db.get("SELECT 1 AS x FROM memories WHERE id = 'b'"), undefined);
      assert.equal(db.get<{ state: string }>("SELECT state FROM team_shares WHERE memory_id = 'b'")?.state, 'tombstone');
      assert.ok(db.get("SELECT 1 AS x FROM memories WHERE id = 'c'"));
    });
  });
});
