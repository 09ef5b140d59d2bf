/**
 * Maintenance changes can be undone for a while (issue #27, "Nothing changes silently"): a merge the
 * merge-entities task made is logged with what it changed, and undoing it gives back the graph as it
 * was before, row for row (entity, name, type, pin, mentions, aspects, attributes, relations);
 * after the window, or a second time, the undo says why it cannot.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_CONTRADICTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { resolveFeedbackConfig } from '../../../src/core/config/feedbackConfig';
import { resolveGraphConfig } from '../../../src/core/config/graphConfig';
import { resolveHintsConfig } from '../../../src/core/config/hintsConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { resolveMaintenanceConfig } from '../../../src/core/config/maintenanceConfig';
import type { ExtractionPayload } from '../../../src/core/extraction/contract';
import { FeedbackTelemetry } from '../../../src/core/feedback/feedbackTelemetry';
import { applyExtractionPayload } from '../../../src/core/graph/applyExtraction';
import { isMemoryError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import { mergeEntitiesTask } from '../../../src/core/maintenance/maintenanceTasks';
import { UNDO_WINDOW_MS, listMaintenanceChanges, mergedInto, undoMaintenanceChange } from '../../../src/core/maintenance/maintenanceUndo';
import { pinEntity } from '../../../src/core/pinning/pinning';
import { graphFixture } from '../graph/graphFixture';
import type { GraphFixture } from '../graph/graphFixture';

const ent = (name: string, type: 'tool' | 'file' | 'symbol' | 'concept' = 'tool') => ({ name, type, description: '' });
const fact = (entity: string, content: string, aspect = 'general') => ({ entity, type: 'fact' as const, content, aspect, group_key: null, claim_key: null, importance: 0.5, confidence: 0.7 });

interface Case {
  readonly name: string;
  /** Extraction payloads, one memory each. */
  readonly payloads: readonly ExtractionPayload[];
  /** Entity pinned before the merge, by name. */
  readonly pin?: string;
  /** The merge the task makes: [merged name, kept name]. */
  readonly merged: readonly [string, string];
}

const CASES: readonly Case[] = [
  {
    name: 'a module and its file, each with facts under a same-named aspect and its own relations',
    payloads: [
      { entities: [ent('shelf/server.py', 'file'), ent('SQLite')], relations: [{ from: 'shelf/server.py', to: 'SQLite', type: 'uses', instruction: '' }], facts: [fact('shelf/server.py', 'serves the reading list', 'api')] },
      { entities: [ent('shelf.server', 'file'), ent('PORT', 'symbol')], relations: [{ from: 'shelf.server', to: 'PORT', type: 'depends_on', instruction: '' }], facts: [fact('shelf.server', 'listens on 4310', 'configuration'), fact('shelf.server', 'answers JSON', 'api')] },
    ],
    merged: ['shelf.server', 'shelf/server.py'],
  },
  {
    name: 'an alias with a relation the merge folds into an existing one, a self relation and a pin',
    payloads: [
      { entities: [ent('JavaScript'), ent('Postgres')], relations: [{ from: 'JavaScript', to: 'Postgres', type: 'uses', instruction: '' }], facts: [fact('JavaScript', 'runs in the browser')] },
      { entities: [ent('JS'), ent('Postgres')], relations: [{ from: 'JS', to: 'Postgres', type: 'uses', instruction: '' }, { from: 'JS', to: 'JavaScript', type: 'related_to', instruction: '' }], facts: [fact('JS', 'is used for the UI')] },
      { entities: [ent('JS')] },
    ],
    pin: 'JS',
    // The pinned "JS" is kept and takes the alias table's name.
    merged: ['JavaScript', 'JavaScript'],
  },
];

/** Everything a merge touches, without update times. */
function graphState(f: GraphFixture): unknown {
  return f.store.read((db) => ({
    entities: db.all('SELECT id, name, canonical_name, entity_type, description, mentions, pinned, pinned_at, created_at FROM entities ORDER BY id'),
    mentions: db.all('SELECT memory_id, entity_id, mention_text, confidence FROM memory_entity_mentions ORDER BY memory_id, entity_id'),
    relations: db.all('SELECT id, source_entity_id, target_entity_id, relation_type, mentions, confidence FROM relations ORDER BY id'),
    aspects: db.all('SELECT id, entity_id, name, canonical_name, weight FROM entity_aspects ORDER BY id'),
    attributes: db.all('SELECT id, entity_id, aspect_id, content, status FROM entity_attributes ORDER BY id'),
  }));
}

async function build(c: Case): Promise<GraphFixture> {
  const f = await graphFixture();
  for (const p of c.payloads) {
    const m = await f.memory(`memory ${c.payloads.indexOf(p)}`);
    await f.store.write('graph', (db) => applyExtractionPayload(db, f.ctx('extractor:llm'), [m], p, 'llm'));
  }
  if (c.pin) {
    const id = f.store.read((db) => db.get<{ id: string }>('SELECT id FROM entities WHERE name = ?', [c.pin ?? null])?.id) as string;
    await f.store.write('pin', (db) => pinEntity(db, 'default', id, '2026-01-01T00:00:00.000Z'));
  }
  return f;
}

let n = 0;
const deps = () => ({
  feedback: resolveFeedbackConfig(), hints: resolveHintsConfig(), jobs: resolveJobsConfig(), graph: resolveGraphConfig(), contradiction: DEFAULT_CONTRADICTION_CONFIG,
  maintenance: resolveMaintenanceConfig(), graphEnabled: true, telemetry: new FeedbackTelemetry(), newId: () => `u-${++n}`,
});
const merge = (f: GraphFixture) => mergeEntitiesTask(deps()).step({ store: f.store, clock: f.clock, logger: silentLogger, runId: 'manual:run-1' }, null);
const undo = (f: GraphFixture, id: string) => f.store.write('undo', (db) => undoMaintenanceChange(db, f.ctx('user'), f.clock.now(), id));

describe('undoing a maintenance merge', () => {
  for (const c of CASES) {
    it(`restores the graph as it was: ${c.name}`, async () => {
      const f = await build(c);
      const before = graphState(f);
      const mergedId = f.store.read((db) => db.get<{ id: string }>('SELECT id FROM entities WHERE name = ?', [c.merged[0]])?.id) as string;
      const r = await merge(f);
      assert.equal(r.summary.entitiesMerged, 1);
      assert.notDeepEqual(graphState(f), before, 'the merge changed the graph');
      const [change] = f.store.read((db) => listMaintenanceChanges(db, f.clock.now(), { runId: 'manual:run-1' }));
      assert.ok(change);
      assert.deepEqual([change.subject, change.target, change.undoable], [c.merged[0], c.merged[1], true]);
      assert.ok(change.why.length > 0, 'says why');
      assert.equal(f.store.read((db) => mergedInto(db, mergedId))?.name, c.merged[1], 'the entity list can say where it went');

      const undone = await undo(f, change.id);
      assert.ok(undone.undoneAt);
      assert.deepEqual(graphState(f), before, 'entity, name, type, pin, mentions, aspects, attributes and relations as before');
      assert.equal(f.store.read((db) => mergedInto(db, mergedId)), undefined, 'it exists again');
      assert.equal(f.count("SELECT COUNT(*) AS n FROM graph_ops WHERE op = 'entity_unmerge' AND actor = 'user'"), 1, 'audited');
      await assert.rejects(undo(f, change.id), (e: unknown) => isMemoryError(e) && /was already undone on 2026-01-01\.$/.test(e.message));
      await f.store.close();
    });
  }

  it('after the undo window it says so, and changes nothing', async () => {
    const f = await build(CASES[0] as Case);
    await merge(f);
    const [change] = f.store.read((db) => listMaintenanceChanges(db, f.clock.now()));
    f.clock.advance(UNDO_WINDOW_MS + 1);
    assert.equal(f.store.read((db) => listMaintenanceChanges(db, f.clock.now()))[0]?.undoable, false);
    const after = graphState(f);
    await assert.rejects(undo(f, change!.id), (e: unknown) => isMemoryError(e)
      && e.message === '"shelf.server" merged into "shelf/server.py" on 2026-01-01 can no longer be undone: maintenance changes can be undone for 7 days, and this one\'s window closed on 2026-01-08.');
    assert.deepEqual(graphState(f), after);
    await f.store.close();
  });

  it('refuses, saying why, when an entity with the merged name was created since', async () => {
    const f = await build(CASES[0] as Case);
    await merge(f);
    const [change] = f.store.read((db) => listMaintenanceChanges(db, f.clock.now()));
    const m = await f.memory('shelf.server again');
    await f.store.write('graph', (db) => db.run("INSERT INTO entities (id, name, canonical_name, entity_type, agent_id, created_at, updated_at) VALUES ('again', 'shelf.server', 'shelf.server', 'file', 'default', ?, ?)", [m, m]));
    await assert.rejects(undo(f, change!.id), /cannot be undone: an entity named "shelf\.server" was created since; merge or rename it first\./);
    await f.store.close();
  });
});
