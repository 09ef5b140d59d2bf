import { strict as assert } from 'node:assert';
import { buildContinuityPrompt, mapPrefixRelevance, parseContinuityResponse } from '../../../src/core/sessions/continuityScore';
import { proxyContinuity } from '../../../src/core/sessions/continuityProxy';

const A = 'aaaaaaaa-1111-4111-8111-111111111111';
const B = 'bbbbbbbb-2222-4222-8222-222222222222';

describe('continuity scoring', () => {
  it('parses a clean JSON answer and maps 8-char prefixes to full ids', () => {
    const r = parseContinuityResponse('{"score":0.8,"confidence":0.9,"memories_used":2,"novel_context_count":1,"reasoning":"ok","per_memory":[{"id":"aaaaaaaa","relevance":0.9},{"id":"bbbbbbbb","relevance":0.2}]}', [A, B]);
    assert.ok(r);
    assert.equal(r.method, 'llm');
    assert.equal(r.score, 0.8);
    assert.equal(r.memoriesUsed, 2);
    assert.equal(r.perMemory.get(A), 0.9);
    assert.equal(r.perMemory.get(B), 0.2);
  });

  it('strips markdown fences and think blocks', () => {
    const text = '<think>the user liked {"score": 0.1}</think>\n```json\n{"score":0.6,"per_memory":[]}\n```';
    const r = parseContinuityResponse(text, [A]);
    assert.equal(r?.score, 0.6);
  });

  it('defaults missing optional fields to zero or empty', () => {
    const r = parseContinuityResponse('{"score":0.5}', [A]);
    assert.ok(r);
    assert.equal(r.confidence, 0);
    assert.equal(r.memoriesUsed, 0);
    assert.equal(r.novelContextCount, 0);
    assert.equal(r.reasoning, '');
    assert.equal(r.perMemory.size, 0);
  });

  it('rejects an answer without a numeric score', () => {
    assert.equal(parseContinuityResponse('{"score":"high"}', [A]), undefined);
    assert.equal(parseContinuityResponse('no json here', [A]), undefined);
  });

  it('clamps out-of-range scores to [0, 1]', () => {
    const r = parseContinuityResponse('{"score":1.7,"confidence":-2,"per_memory":[{"id":"aaaaaaaa","relevance":5},{"id":"bbbbbbbb","relevance":-1}]}', [A, B]);
    assert.equal(r?.score, 1);
    assert.equal(r?.confidence, 0);
    assert.equal(r?.perMemory.get(A), 1);
    assert.equal(r?.perMemory.get(B), 0);
  });

  it('skips unknown and ambiguous prefixes', () => {
    const twin = 'aaaaaaaa-9999-4999-8999-999999999999';
    const m = mapPrefixRelevance([{ id: 'cccccccc', relevance: 1 }, { id: 'aaaaaaaa', relevance: 1 }, { id: 'bbbbbbbb', relevance: 0.4 }, 'junk'], [A, twin, B]);
    assert.deepEqual([...m.entries()], [[B, 0.4]]);
  });

  it('tolerates trailing commas', () => {
    assert.equal(parseContinuityResponse('{"score":0.3,}', [])?.score, 0.3);
  });

  it('lists injected memories by 8-char prefix in the prompt', () => {
    const p = buildContinuityPrompt([{ id: A, content: 'Use pnpm', score: 0.7 }], 'summary', 'x'.repeat(10_000), 4_000);
    assert.match(p, /- \[aaaaaaaa\] \(score=0\.70\) Use pnpm/);
    assert.ok(!p.includes('x'.repeat(4_001)));
  });
});

describe('continuity proxy (no LLM)', () => {
  it('scores word overlap of injected memories with the transcript and marks itself proxy', () => {
    const r = proxyContinuity([
      { id: A, content: 'The build uses esbuild bundler', score: 1 },
      { id: B, content: 'Deploy with kubernetes helm charts', score: 1 },
    ], 'User: why does esbuild fail in the build? Assistant: the bundler config it uses is wrong');
    assert.equal(r.method, 'proxy');
    assert.equal(r.perMemory.get(A), 1);
    assert.equal(r.perMemory.get(B), 0);
    assert.equal(r.score, 0.5);
    assert.equal(r.memoriesUsed, 1);
    assert.match(r.reasoning, /^proxy:/);
  });

  it('gives a valid zero score when nothing was injected', () => {
    const r = proxyContinuity([], 'anything');
    assert.equal(r.score, 0);
    assert.equal(r.confidence, 0);
    assert.equal(r.perMemory.size, 0);
  });
});
