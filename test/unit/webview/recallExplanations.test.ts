import { strict as assert } from 'node:assert';
import { KnowledgeController } from '../../../src/extension/knowledge/knowledgeController';
import { explainLinkArgs, MAX_KEPT_RECALLS, RecallExplanations } from '../../../src/extension/knowledge/recallExplanationStore';
import { createRecordingLogger } from '../../../src/core/logger';
import { decodeHostMessage, parseHostMessage, PROTOCOL_LIMITS } from '../../../src/shared/knowledgeProtocol';
import type { HostMessage } from '../../../src/shared/knowledgeProtocolTypes';
import type { RecallResult } from '../../../src/core/recall/recallTypes';
import { FakeKnowledgeSource } from './fakeKnowledgeSource';

function result(id: string, score: number, content = `memory ${id}`): RecallResult {
  return {
    id, content, score, relevance: Math.min(1, score), type: 'decision', createdAt: '2026-08-29T10:00:00.000Z', sourceId: null,
    explain: { channels: { lexical: 0.5, semantic: 0.6, hint: 0, traversal: 0 }, fused: score, sources: ['lexical', 'semantic'], termsHit: 2, termCount: 3, boosts: [], penalties: [], notes: [], score },
  };
}

/** The @memory answer's "why?" (issue #27): the recall it came from, shown in the Knowledge panel. */
describe('"why?" in the Knowledge panel: kept recalls and the explainRecall message', () => {
  it('keeps the recall an answer was built from and gives the explanation of one of its memories', () => {
    const kept = new RecallExplanations();
    const key = kept.keep('how do we store the reading list?', [result('a', 1.04), result('b', 0.52)], 12.4);
    const shown = kept.explanation(key, 'b');
    assert.ok(shown);
    assert.equal(shown.query, 'how do we store the reading list?');
    assert.equal(shown.focusId, 'b');
    assert.equal(shown.tookMs, 12);
    assert.deepEqual(shown.results.map((r) => [r.id, r.relevance]), [['a', 1], ['b', 0.5]]);
    // The explanation is explainText's plain words, on the 0–1 relevance scale.
    assert.match(shown.results[1]?.explain?.lines[0] ?? '', /^Relevance 0\.50 of 1/);
    assert.equal(kept.explanation('nope', 'b'), undefined);
  });

  it('keeps only the most recent recalls', () => {
    const kept = new RecallExplanations();
    const first = kept.keep('q0', [result('a', 1)]);
    let last = first;
    for (let i = 1; i <= MAX_KEPT_RECALLS; i++) last = kept.keep(`q${i}`, [result('a', 1)]);
    assert.equal(kept.explanation(first, 'a'), undefined);
    assert.equal(kept.explanation(last, 'a')?.query, `q${MAX_KEPT_RECALLS}`);
  });

  it('bounds what it keeps to what the protocol accepts (results, query length)', () => {
    const kept = new RecallExplanations();
    const many = Array.from({ length: PROTOCOL_LIMITS.recallLimitMax + 5 }, (_, i) => result(`m${i}`, 1 - i / 100));
    const key = kept.keep('x'.repeat(PROTOCOL_LIMITS.recallQueryLength + 10), many);
    const shown = kept.explanation(key, 'm0');
    assert.ok(shown);
    const decoded = decodeHostMessage(JSON.parse(JSON.stringify({ type: 'explainRecall', ...shown })));
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
    assert.equal(shown.results.length, PROTOCOL_LIMITS.recallLimitMax);
    assert.equal(explainLinkArgs(key, 'm0', 'y'.repeat(5000))[2].length, PROTOCOL_LIMITS.recallQueryLength);
  });

  it('the controller sends it as a valid explainRecall message; malformed ones are refused', () => {
    const sent: HostMessage[] = [];
    const controller = new KnowledgeController(new FakeKnowledgeSource([]), (m) => {
      assert.ok(parseHostMessage(JSON.parse(JSON.stringify(m))), `invalid host message ${JSON.stringify(m).slice(0, 300)}`);
      sent.push(m);
    }, { openInTree: async () => undefined, copyText: async () => undefined }, createRecordingLogger());
    const kept = new RecallExplanations();
    const shown = kept.explanation(kept.keep('which db?', [result('a', 0.8)]), 'a');
    assert.ok(shown);
    controller.showRecallExplanation(shown);
    assert.deepEqual(sent.map((m) => m.type), ['explainRecall']);
    const bad = decodeHostMessage({ type: 'explainRecall', query: 'q', focusId: '', tookMs: 1, results: [] });
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.error, /focusId/);
  });
});
