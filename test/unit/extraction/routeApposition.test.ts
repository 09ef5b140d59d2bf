/**
 * A route named and written out in one breath is one entity (issue #27, "A graph a developer
 * recognises": the demo had "mark as read" and "POST /books/{id}/read" as two entities).
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import type { EntityType } from '../../../src/core/config/extractionConfig';
import type { Mention } from '../../../src/core/extraction/entityMentions';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';
import { dropRouteAppositions } from '../../../src/core/extraction/routeApposition';

/** Mentions of `names` at their first position in `text`. */
const at = (text: string, ...names: string[]): Mention[] => names.map((name) => {
  const start = text.indexOf(name);
  assert.ok(start >= 0, name);
  return { name, type: 'symbol' as EntityType, start, end: start + name.length };
});
const kept = (text: string, ...names: string[]): string[] => dropRouteAppositions(text, at(text, ...names)).map((m) => m.name);

describe('route appositions: a named route and its METHOD /path in parentheses are one entity', () => {
  it('the demo\'s sentence gives one entity, "mark as read", which carries the fact', () => {
    const text = 'Discussed a `mark as read` route (POST /books/{id}/read); postponed until the import question is settled.';
    const p = heuristicExtract(text, DEFAULT_EXTRACTION_CONFIG, undefined, { memoryType: 'event' });
    assert.deepEqual((p.entities ?? []).map((e) => e.name), ['mark as read']);
    assert.ok((p.facts ?? []).length > 0 && (p.facts ?? []).every((f) => f.entity === 'mark as read'));
  });

  it('drops the route written in parentheses after its name, or the route whose name follows in parentheses', () => {
    assert.deepEqual(kept('Discussed a `mark as read` route (POST /books/{id}/read); later.', 'mark as read', 'POST /books/{id}/read'), ['mark as read']);
    assert.deepEqual(kept('The list endpoint (GET /books) returns JSON.', 'list', 'GET /books'), ['list']);
    assert.deepEqual(kept('We added POST /books/{id}/read (the `mark as read` route) yesterday.', 'POST /books/{id}/read', 'mark as read'), ['mark as read']);
  });

  it('keeps a route that is not in apposition, and two names in parentheses that are not routes', () => {
    assert.deepEqual(kept('`parse_book` runs before POST /books/{id}/read.', 'parse_book', 'POST /books/{id}/read'), ['parse_book', 'POST /books/{id}/read']);
    assert.deepEqual(kept('The server (POST /books/{id}/read and more) is slow.', 'server', 'POST /books/{id}/read'), ['server', 'POST /books/{id}/read']);
    assert.deepEqual(kept('Storage is SQLite (shelf/store.py).', 'SQLite', 'shelf/store.py'), ['SQLite', 'shelf/store.py']);
  });
});
