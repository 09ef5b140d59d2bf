import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregate, loadDevSet, parseJsonLines, recallAtK, reciprocalRank, scoreQuestion } from '../../../bench/devset';
import { isMemoryError } from '../../../src/core/errors';

describe('devset metrics', () => {
  describe('recallAtK', () => {
    it('counts a single gold only when it is inside the first k', () => {
      assert.equal(recallAtK(['a', 'b', 'c', 'd'], ['c'], 2), 0);
      assert.equal(recallAtK(['a', 'b', 'c', 'd'], ['c'], 3), 1);
    });

    it('gives partial credit for multi-part gold', () => {
      const ranked = ['x', 'g1', 'y', 'z', 'g2'];
      assert.equal(recallAtK(ranked, ['g1', 'g2'], 3), 0.5);
      assert.equal(recallAtK(ranked, ['g1', 'g2'], 5), 1);
    });

    it('treats repeated gold ids as one', () => {
      assert.equal(recallAtK(['g'], ['g', 'g'], 1), 1);
    });

    it('returns 0 for empty gold, k of zero, or an empty ranking', () => {
      assert.equal(recallAtK(['a'], [], 5), 0);
      assert.equal(recallAtK(['a'], ['a'], 0), 0);
      assert.equal(recallAtK([], ['a'], 5), 0);
    });
  });

  describe('reciprocalRank', () => {
    it('is 1 over the rank of the first gold', () => {
      assert.equal(reciprocalRank(['a', 'b', 'g'], ['g']), 1 / 3);
      assert.equal(reciprocalRank(['g'], ['g']), 1);
    });

    it('uses the best-ranked of several gold ids', () => {
      assert.equal(reciprocalRank(['a', 'g2', 'g1'], ['g1', 'g2']), 0.5);
    });

    it('is 0 when no gold is ranked', () => {
      assert.equal(reciprocalRank(['a', 'b'], ['g']), 0);
    });
  });

  describe('aggregate', () => {
    it('macro-averages overall and per category with hand-computed numbers', () => {
      const scores = [
        scoreQuestion({ category: 'a', gold: ['g'] }, ['g']),
        scoreQuestion({ category: 'a', gold: ['g'] }, ['1', '2', '3', '4', '5', 'x', 'g']),
        scoreQuestion({ category: 'b', gold: ['g', 'h'] }, ['g', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'h']),
      ];
      // a1: r5 1, r10 1, rr 1 | a2: r5 0, r10 1, rr 1/7 | b: r5 0.5, r10 0.5, rr 1
      const report = aggregate(scores);
      assert.equal(report.overall.count, 3);
      assert.equal(report.overall.recallAt5, 0.5);
      assert.equal(report.overall.recallAt10, 2.5 / 3);
      assert.ok(Math.abs(report.overall.mrr - (1 + 1 / 7 + 1) / 3) < 1e-12);
      assert.deepEqual(Object.keys(report.byCategory), ['a', 'b']);
      assert.equal(report.byCategory.a.recallAt5, 0.5);
      assert.equal(report.byCategory.a.recallAt10, 1);
      assert.ok(Math.abs(report.byCategory.a.mrr - (1 + 1 / 7) / 2) < 1e-12);
      assert.deepEqual(report.byCategory.b, { count: 1, recallAt5: 0.5, recallAt10: 0.5, mrr: 1 });
    });

    it('reports zeros for no questions instead of NaN', () => {
      assert.deepEqual(aggregate([]).overall, { count: 0, recallAt5: 0, recallAt10: 0, mrr: 0 });
    });
  });

  describe('loading', () => {
    it('names the line of invalid JSON with a coded error', () => {
      assert.throws(() => parseJsonLines('{"a":1}\n{oops\n', 'x.jsonl'), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /line 2/.test((e as Error).message));
    });

    it('skips blank lines', () => {
      assert.deepEqual(parseJsonLines('\n{"a":1}\n\n', 'x.jsonl'), [{ a: 1 }]);
    });

    it('reports a missing directory as not found, naming the regenerate command', () => {
      const dir = mkdtempSync(join(tmpdir(), 'devset-missing-'));
      try {
        assert.throws(() => loadDevSet(dir), (e: unknown) => isMemoryError(e, 'E_NOT_FOUND') && /generateDevSet/.test((e as Error).message));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('loads memories and questions from a directory', () => {
      const dir = mkdtempSync(join(tmpdir(), 'devset-small-'));
      try {
        writeFileSync(join(dir, 'memories.jsonl'), '{"sourceId":"dev-000001","content":"x","type":"fact","createdAt":"2025-01-01T00:00:00.000Z","sessionId":"s","project":"p","who":"user"}\n');
        writeFileSync(join(dir, 'questions.jsonl'), '{"id":"q-0001","query":"x?","gold":["dev-000001"],"category":"fact"}\n');
        const set = loadDevSet(dir);
        assert.equal(set.memories[0].sourceId, 'dev-000001');
        assert.deepEqual(set.questions[0].gold, ['dev-000001']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
