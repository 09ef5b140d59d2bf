import { strict as assert } from 'node:assert';
import { parseLlmJson, stripThinking } from '../../../src/core/extraction/llmJson';

describe('robust LLM JSON parsing', () => {
  it('parses a plain JSON object', () => {
    assert.deepEqual(parseLlmJson('{"a":1}'), { a: 1 });
  });

  it('strips markdown fences', () => {
    assert.deepEqual(parseLlmJson('Here you go:\n```json\n{"a": [1, 2]}\n```\nDone.'), { a: [1, 2] });
  });

  it('strips <think> blocks, including one that is never closed', () => {
    assert.deepEqual(parseLlmJson('<think>maybe {"a":0}</think>\n{"a":1}'), { a: 1 });
    assert.equal(stripThinking('{"a":1}<think>rambling'), '{"a":1}');
  });

  it('finds the object inside trailing prose and fixes trailing commas', () => {
    assert.deepEqual(parseLlmJson('Sure! {"a": [1, 2,], "b": {"c": 3,},} Hope this helps {not json'), { a: [1, 2], b: { c: 3 } });
  });

  it('prefers the final acceptable object over earlier examples', () => {
    const text = 'Example: {"contradicts": false, "confidence": 0.1}. My answer: {"contradicts": true, "confidence": 0.9}';
    assert.deepEqual(parseLlmJson(text, (o) => 'contradicts' in o), { contradicts: true, confidence: 0.9 });
  });

  it('handles braces inside strings', () => {
    assert.deepEqual(parseLlmJson('x {"s": "a } b { c"} y'), { s: 'a } b { c' });
  });

  it('returns undefined for garbage, arrays and empty answers without throwing', () => {
    for (const g of ['', '   ', 'no json here', '[1,2]', '{"unterminated": ', '<think>{"a":1}']) assert.equal(parseLlmJson(g), undefined, g);
  });
});
