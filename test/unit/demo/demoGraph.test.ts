/**
 * The demo store's knowledge graph as a developer reads it (issue #27): the seed
 * (test/fixtures/demoWorkspace/.agent-memory-seed.jsonl) ingested exactly as `npm start` does, then
 * read through the CLI: one entity per thing, sensible types, nothing listed without knowledge,
 * and current values first with their history.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { duplicateKey } from '../../../src/core/graph/mergeEntities';
import { DEFAULT_ALIAS_RESOLVER } from '../../../src/core/extraction/entityAliases';
import { countEntities, entityPage } from '../../../src/core/graph/knowledgeQueries';
import { openStore } from '../../../src/core/store/openStore';
import { readEntityDetail } from '../../../src/extension/knowledge/entityViews';
import type { EntityDetail } from '../../../src/shared/knowledgeProtocolTypes';
import { ensureUseLiteModel, ROOT } from '../models/modelFixture';

const SEED = join(ROOT, 'test', 'fixtures', 'demoWorkspace', '.agent-memory-seed.jsonl');

/** Expected types of the demo's well-known names. */
const TYPES: Readonly<Record<string, string>> = {
  'SHORT_BOOK_PAGES': 'symbol', 'SHELF_DB': 'symbol', 'shelf/server.py': 'file', 'shelf/store.py': 'file', 'shelf.db': 'file',
  'SQLite': 'tool', 'JSON': 'format', 'API': 'concept', 'WAL': 'concept', 'Python': 'tool', 'pyproject.toml': 'file',
};

describe('seeded demo store: the graph a developer recognises', function () {
  this.timeout(180_000);
  let dir: string;
  const details = new Map<string, EntityDetail>();
  let listed: { name: string; type: string; aspects: number; attributes: number; relations: number; constraints: number }[] = [];
  /** Every active entity, listed or not (the graph tree and a search show those the list leaves out). */
  let stored: string[] = [];
  let storedTypes = new Map<string, string>();

  before(async () => {
    ensureUseLiteModel();
    dir = mkdtempSync(join(tmpdir(), 'am-demo-graph-'));
    const err: string[] = [];
    const out: string[] = [];
    const code = await runCli(['--store', dir, 'ingest', SEED], { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } });
    assert.equal(code, 0, err.join(''));
    const store = await openStore({ dir });
    try {
      store.read((db) => {
        const total = countEntities(db, 'default', { query: '', entityType: null });
        listed = entityPage(db, 'default', { query: '', entityType: null, offset: 0, limit: total }).map((r) => ({ ...r, type: r.entityType }));
        const rows = db.all<{ name: string; entity_type: string }>("SELECT name, entity_type FROM entities WHERE status = 'active'");
        stored = rows.map((r) => r.name);
        storedTypes = new Map(rows.map((r) => [r.name, r.entity_type]));
        for (const name of ['SHORT_BOOK_PAGES', 'server', 'SQLite', 'shelf/server.py']) {
          const id = db.get<{ id: string }>('SELECT id FROM entities WHERE canonical_name = ?', [name.toLowerCase()])?.id;
          const d = id ? readEntityDetail(db, 'default', id, () => null) : null;
          if (d) details.set(name, d);
        }
      });
    } finally { await store.close(); }
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  it('lists one entity per route, module and file, and none with nothing attached', () => {
    const keys = new Map<string, string[]>();
    for (const e of listed) keys.set(duplicateKey(e.name, e.type, DEFAULT_ALIAS_RESOLVER), [...(keys.get(duplicateKey(e.name, e.type, DEFAULT_ALIAS_RESOLVER)) ?? []), e.name]);
    const typeOf = (n: string): string => listed.find((e) => e.name === n)?.type ?? '';
    // Names that fold alike but are different kinds of thing (SHELF_DB, the variable; shelf.db, the file) stay apart.
    const dup = [...keys.values()].filter((names) => names.length > 1 && new Set(names.map(typeOf)).size === 1);
    assert.deepEqual(dup, [], 'no two listed entities fold to one name');
    const names = listed.map((e) => e.name);
    assert.ok(names.includes('shelf/server.py') && !names.includes('shelf.server'), 'the module shelf.server is its file');
    assert.equal(names.filter((n) => /mark.as.read/i.test(n)).length, 1, 'one "mark as read" entity');
    // Also among the entities the list leaves out: the route's path is the same thing as its name.
    assert.deepEqual(stored.filter((n) => /mark.as.read|\/books\/\{id\}\/read/i.test(n)), ['mark as read'], 'one entity for the mark-as-read route, written out or not');
    assert.ok(names.includes('SHELF_DB') && names.includes('shelf.db'), 'an environment variable is not the file it names');
    assert.deepEqual(listed.filter((e) => e.aspects + e.attributes + e.relations + e.constraints === 0).map((e) => e.name), [], 'no 0a 0t 0r entry');
  });

  it('types the well-known names sensibly (a data format is not a tool, "API" is not a package)', () => {
    // Every well-known name is checked, listed or not (WAL has nothing attached in the demo).
    for (const [name, type] of Object.entries(TYPES)) assert.equal(storedTypes.get(name), type, name);
    assert.ok(listed.some((e) => e.name === 'JSON'), 'JSON is listed');
  });

  it('shows SHORT_BOOK_PAGES as 220 now with 180 as history, the server port as 4310, and SQLite carrying the decision', () => {
    const config = details.get('SHORT_BOOK_PAGES')?.aspects.find((a) => a.name === 'configuration');
    assert.ok(config, 'SHORT_BOOK_PAGES has a configuration aspect');
    const now = config.attributes.filter((a) => a.status === 'active');
    assert.deepEqual(now.map((a) => a.content), ['SHORT_BOOK_PAGES = 220']);
    assert.match(now[0]?.currentnessNote ?? '', /^220 since 2026-09-18; was 180 \(2026-08-04\)$/);
    assert.match(now[0]?.source ?? '', /SHORT_BOOK_PAGES is 220 now/);
    assert.deepEqual(config.attributes.filter((a) => a.status === 'superseded').map((a) => a.content), ['SHORT_BOOK_PAGES = 180']);
    const port = details.get('server')?.aspects.find((a) => a.name === 'configuration')?.attributes;
    assert.deepEqual(port?.filter((a) => a.status === 'active').map((a) => a.content), ['port = 4310']);
    assert.match(port?.find((a) => a.status === 'active')?.currentnessNote ?? '', /^4310 since 2026-08-29; was 8080 \(2026-06-02\)$/);
    const decisions = details.get('SQLite')?.aspects.find((a) => a.name === 'decisions')?.attributes ?? [];
    assert.ok(decisions.some((a) => a.status === 'active' && /move the reading list from the JSON file to SQLite/.test(a.content)), 'SQLite carries the decision');
    const aspects = [...details.values()].flatMap((d) => d.aspects.map((a) => a.name));
    assert.ok(!aspects.includes('general'), `no "general" bucket: ${aspects.join(', ')}`);
  });
});
