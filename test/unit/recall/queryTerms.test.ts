import { strict as assert } from 'node:assert';
import { queryTerms, stripQuestionShells, significantTokens, graphTokens } from '../../../src/core/recall/queryTerms';
import { buildMatchExpression, quoteFtsTerm, plainOperator } from '../../../src/core/recall/ftsQuery';
import { countHits, minHits, normaliseBm25, probedLexicalScore, requiredHits } from '../../../src/core/recall/termProbe';

describe('recall query terms', () => {
  it('strips English question shells and stop words', () => {
    assert.equal(stripQuestionShells('What is the deploy port?').trim(), 'deploy port');
    assert.deepEqual(queryTerms('How do I run the integration tests?', 8), ['run', 'integration', 'tests']);
  });

  it('drops object and possessive pronouns, like the other stop words', () => {
    assert.deepEqual(queryTerms('What did Mel and her kids paint for him?', 8), ['mel', 'kids', 'paint']);
    assert.deepEqual(significantTokens('his guitar and hers'), ['guitar']);
  });

  it('strips Chinese question shells (好了吗, 是多少, 吗, 呢)', () => {
    assert.deepEqual(queryTerms('体系7审计好了吗？', 8), ['体系', '审计']);
    assert.deepEqual(queryTerms('发布端口是多少', 8), ['发布端口']);
    assert.deepEqual(queryTerms('用户喜欢什么主题', 8), ['用户', '喜欢', '主题']);
    assert.deepEqual(queryTerms('客必得 账号 关联 任务', 8), ['客必得', '账号', '关联', '任务']);
    assert.deepEqual(queryTerms('数据库呢', 8), ['数据库']);
  });

  it('splits on punctuation and caps the number of terms', () => {
    assert.deepEqual(queryTerms('发布端口，配置文件', 8), ['发布端口', '配置文件']);
    assert.deepEqual(queryTerms('a-b c.d/e_f x', 8), ['e_f']);
    assert.equal(queryTerms('one two three four five six seven eight nine ten', 8).length, 8);
  });

  it('gives graph tokens as lowercased runs of 2+ without stop words', () => {
    assert.deepEqual(graphTokens('Does the API use PostgreSQL v2?'), ['api', 'postgresql', 'v2']);
    assert.deepEqual(significantTokens('the a I'), []);
  });
});

describe('recall FTS sanitiser', () => {
  it('quotes terms and doubles embedded quotes', () => {
    assert.equal(quoteFtsTerm('say "hi"'), '"say ""hi"""');
    assert.equal(buildMatchExpression(['NEAR', 'content:x', 'a*'], 'OR'), '"NEAR" OR "content:x" OR "a*"');
  });

  it('returns undefined when nothing searchable is left', () => {
    assert.equal(buildMatchExpression([], 'AND'), undefined);
    assert.equal(buildMatchExpression(['\u0000'], 'AND'), undefined);
  });

  it('joins three terms or fewer with AND, more with OR', () => {
    assert.equal(plainOperator(3), 'AND');
    assert.equal(plainOperator(4), 'OR');
  });
});

describe('recall term probing', () => {
  it('applies the majority-hit rule: a two-term query must hit both', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map(minHits), [1, 2, 2, 3, 3]);
  });

  it('keeps the majority rule up to majorityUpTo terms and needs longMin hits beyond', () => {
    assert.deepEqual([1, 2, 3, 4, 8].map((n) => requiredHits(n, 2, 1)), [1, 2, 1, 1, 1]);
    assert.deepEqual([1, 2, 3, 4, 8].map((n) => requiredHits(n, 3, 2)), [1, 2, 2, 2, 2]);
    assert.equal(requiredHits(3, 2, 5), 2); // never above the majority
  });

  it('blends hit ranking with plain bm25 by hitWeight', () => {
    // hitWeight 0.5, 2 of 4 terms, bm25Norm 0.6: 0.5·(1.6/4) + 0.5·0.6 = 0.5
    assert.ok(Math.abs(probedLexicalScore(2, 4, 0.6, 0.5) - 0.5) < 1e-12);
    assert.equal(probedLexicalScore(2, 4, 0.6, 0), 0.6);
  });

  it('counts Latin terms as whole tokens and CJK terms as substrings', () => {
    assert.equal(countHits(['port', 'config'], 'The configuration file sets PORT=8080'), 1);
    assert.equal(countHits(['端口', '配置文件'], '配置文件里没有提到'), 1);
    assert.equal(countHits(['深色主题'], '用户喜欢使用深色主题'), 1);
  });

  it('normalises bm25 per query by the largest magnitude', () => {
    assert.deepEqual(normaliseBm25([-4, -2, -1]), [1, 0.5, 0.25]);
    assert.deepEqual(normaliseBm25([0, 0]), [0, 0]);
  });

  it('scores more terms hit above fewer, bm25 ordering within a hit count', () => {
    // 3 terms: all hit with weak bm25 (3-1+0.1)/3 = 0.7 beats 2 hits with top bm25 (2-1+1)/3 = 0.667.
    assert.ok(Math.abs(probedLexicalScore(3, 3, 0.1) - 0.7) < 1e-12);
    assert.ok(Math.abs(probedLexicalScore(2, 3, 1) - 2 / 3) < 1e-12);
    assert.equal(probedLexicalScore(1, 1, 0.4), 0.4);
    assert.equal(probedLexicalScore(0, 2, 1), 0);
  });
});
