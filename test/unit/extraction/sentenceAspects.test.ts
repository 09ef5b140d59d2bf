/**
 * Aspects that mean something without a language model (issue #27, Deliver 2): a sentence no
 * pattern claimed goes to the aspect of what it is about, from the memory's type and its content,
 * never to one "general" bucket.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { aspectOfSentence, heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';

describe('aspects from the memory type and the sentence', () => {
  const CASES: readonly (readonly [string, string | undefined, string])[] = [
    ['The reading list is stored in shelf/store.py.', 'decision', 'decisions'],
    ['Pages must be greater than zero in shelf/store.py.', 'constraint', 'constraints'],
    ['Run the tests with python -m unittest in tests/test_recommend.py.', 'command', 'usage'],
    ['parse_book crashed on an empty title.', 'bug', 'problems'],
    ['We discussed shelf/server.py on Friday.', 'event', 'history'],
    ['Session summary: shelf/store.py now uses SQLite.', 'summary', 'history'],
    ['The user likes short books in shelf/recommend.py.', 'preference', 'preferences'],
    ['The next_book handler answers GET /next in shelf/server.py.', 'fact', 'api'],
    ['shelf/recommend.py is owned by the reading team.', 'fact', 'ownership'],
    ['shelf/server.py logs every request.', 'fact', 'facts'],
    ['shelf/server.py logs every request.', undefined, 'facts'],
    ['shelf/server.py logs every request.', 'some-new-type', 'facts'],
  ];
  for (const [sentence, type, aspect] of CASES) {
    it(`${type ?? 'no type'}: "${sentence}" → ${aspect}`, () => {
      assert.equal(aspectOfSentence(sentence, type), aspect);
    });
  }

  it('the extractor files a plain sentence under that aspect, never "general"', () => {
    const p = heuristicExtract('We discussed shelf/server.py on Friday.', DEFAULT_EXTRACTION_CONFIG, undefined, { memoryType: 'event' });
    assert.deepEqual(p.facts?.map((f) => [f.entity, f.aspect]), [['shelf/server.py', 'history']]);
  });
});
