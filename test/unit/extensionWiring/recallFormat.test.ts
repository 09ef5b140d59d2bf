import { strict as assert } from 'node:assert';
import { answerPrompt, escapeMarkdown, explainDocument, explainLines, resultList, snippet } from '../../../src/extension/chat/recallFormat';
import { createRecordingLogger } from '../../../src/core/logger';
import { levelLogger } from '../../../src/extension/levelLogger';
import type { RecallResult } from '../../../src/core/recall/recallTypes';

const result: RecallResult = {
  id: 'm1', sourceId: 'https://example.com/doc', content: 'We use [SQLite](x) with *WAL*.\nSecond line.', score: 0.8123, type: 'decision', createdAt: '2026-03-04T05:06:07.000Z',
  explain: {
    channels: { lexical: 0.5, semantic: 0.7, hint: 0, traversal: 0.1 }, fused: 0.62, sources: ['lexical', 'vector'], termsHit: 2, termCount: 3,
    boosts: [{ stage: 'graphBoost', delta: 0.15, note: 'linked to sqlite' }], penalties: [{ stage: 'hub', factor: 0.7 }], notes: ['reranked'], score: 0.8123,
  },
};

describe('@memory answer formatting', () => {
  it('escapes markdown structure in memory text so a memory cannot inject links', () => {
    assert.equal(escapeMarkdown('[a](command:x) *b*'), '\\[a\\]\\(command:x\\) \\*b\\*');
  });

  it('shortens long text to one line with an ellipsis', () => {
    assert.equal(snippet('a\n\nb   c', 10), 'a b c');
    assert.equal(snippet('x'.repeat(30), 10), `${'x'.repeat(9)}…`);
  });

  it('lists memories with type, date, score and an optional link', () => {
    const md = resultList([result], () => '[why?](command:y)');
    assert.match(md, /^1\. \*\*decision\*\* — We use \\\[SQLite\\\]\\\(x\\\) with \\\*WAL\\\*\. Second line\. _\(2026-03-04, score 0\.81\)_ \[why\?\]\(command:y\)\n$/);
  });

  it('explains channels, terms hit, boosts, penalties and notes', () => {
    assert.ok(result.explain);
    const lines = explainLines(result.explain);
    assert.deepEqual(lines, [
      '- found by: lexical, vector',
      '- channels: lexical 0.500 (2/3 query terms), semantic 0.700, hint 0.000, traversal 0.100',
      '- fused score 0.620 → final 0.812',
      '- boosts: graphBoost +0.1500 (linked to sqlite)',
      '- penalties: hub ×0.700',
      '- note: reranked',
    ]);
    const doc = explainDocument('which db', result);
    assert.match(doc, /- source: https:\/\/example\.com\/doc\n/);
    assert.match(doc, /## Score breakdown\n\n- found by: lexical, vector/);
  });

  it('asks the model to answer only from numbered memories and cite them', () => {
    const p = answerPrompt('which database?', [result]);
    assert.match(p, /\[1\] \(decision, 2026-03-04\) We use \[SQLite\]\(x\) with \*WAL\*\. Second line\./);
    assert.match(p, /Cite the memories you use as \[n\]/);
    assert.match(p, /Question: which database\?$/);
  });
});

describe('core logger filtered by agentMemory.log.level', () => {
  it('drops lines below the current level and follows level changes', () => {
    const rec = createRecordingLogger();
    let level: 'debug' | 'warn' = 'warn';
    const log = levelLogger(rec, () => level);
    log.info('hidden');
    log.warn('shown');
    level = 'debug';
    log.debug('now shown');
    assert.deepEqual(rec.lines.map((l) => l.message), ['shown', 'now shown']);
  });
});
