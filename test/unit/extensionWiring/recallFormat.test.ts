import { strict as assert } from 'node:assert';
import { answerPrompt, COMPOSED_ANSWER_HINT, currentFirst, escapeMarkdown, explainLines, memoriesOnlyAnswer, resultList, snippet, staleLabel, toolResultText } from '../../../src/extension/chat/recallFormat';
import { createRecordingLogger } from '../../../src/core/logger';
import { levelLogger } from '../../../src/extension/host/levelLogger';
import type { RecallResult } from '../../../src/core/recall/recallTypes';

const result: RecallResult = {
  id: 'm1', sourceId: 'https://example.com/doc', content: 'We use [SQLite](x) with *WAL*.\nSecond line.', score: 0.8123, relevance: 1, type: 'decision', createdAt: '2026-03-04T05:06:07.000Z',
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

  it('lists memories with type, date, relevance and an optional link', () => {
    const md = resultList([result], () => '[why?](command:y)');
    assert.match(md, /^1\. \*\*decision\*\* — We use \\\[SQLite\\\]\\\(x\\\) with \\\*WAL\\\*\. Second line\. _\(2026-03-04, relevance 1\.00\)_ \[why\?\]\(command:y\)\n$/);
  });

  it('shows relevance on the 0–1 scale of the legend, never a raw score above 1 (issue #25)', () => {
    const boosted = [{ ...result, id: 'a', score: 1.04 }, { ...result, id: 'b', score: 0.52 }];
    const md = resultList(boosted);
    assert.doesNotMatch(md, /1\.04|score/);
    assert.match(md, /relevance 1\.00\)_\n2\..*relevance 0\.50\)_\n$/s);
    // A list cut from a larger recall is scaled to that recall's best result.
    assert.match(resultList([boosted[1]!], undefined, 1.04), /relevance 0\.50/);
  });

  it('explains in plain words: match, how it was found, each step that changed the score, notes', () => {
    assert.ok(result.explain);
    const lines = explainLines(result.explain, { best: 0.8123 });
    assert.deepEqual(lines, [
      '- Relevance 1.00 of 1 \\(the best result is 1.00\\); match 0.62 of 1.',
      '- Found because it shares 2 of 3 words with the question; is close in meaning \\(similarity 0.70\\).',
      '- Graph: mentions an entity the question names \\(\\+0.15 on the score\\).',
      '- Common entities only: mentions only entities that appear in many memories \\(−30%\\).',
      '- Reranked.',
    ]);
  });

  it('asks the model to answer only from numbered memories and cite them', () => {
    const p = answerPrompt('which database?', [result]);
    assert.match(p, /\[1\] \(decision, 2026-03-04\) We use \[SQLite\]\(x\) with \*WAL\*\. Second line\./);
    assert.match(p, /Cite the memories you use as \[n\]/);
    assert.match(p, /Question: which database\?$/);
  });
});

describe('currentness in answers, tool output and the memories-only answer', () => {
  const base = { sourceId: null, score: 0.5, relevance: 0.5, type: 'decision' } as const;
  const stale: RecallResult = { ...base, id: 'old', content: 'We store the reading list in a JSON file.', createdAt: '2026-06-02T00:00:00Z', score: 0.9, relevance: 1,
    currentness: { status: 'superseded', replacement: 'Move the reading list from the JSON file to SQLite.', replacementId: 'new' } };
  const current: RecallResult = { ...base, id: 'new', content: 'Move the reading list from the JSON file to SQLite.', createdAt: '2026-06-23T00:00:00Z', score: 0.8, relevance: 0.8 / 0.9 };
  const other: RecallResult = { ...base, id: 'x', content: 'Migrations run on every start.', createdAt: '2026-06-24T00:00:00Z', score: 0.4, type: 'fact' };
  const orphan: RecallResult = { ...base, id: 'p', content: 'The server listens on port 8080.', createdAt: '2026-06-01T00:00:00Z', type: 'fact',
    currentness: { status: 'partly-superseded', replacement: 'The server now listens on 127.0.0.1:4310.', replacementId: 'not-recalled' } };

  it('puts current memories first, each group in recall order', () => {
    assert.deepEqual(currentFirst([stale, current, orphan, other]).map((r) => r.id), ['new', 'x', 'old', 'p']);
  });

  it('labels a stale memory by the number of its replacement, or by the replacing text when it was not recalled', () => {
    const ordered = currentFirst([stale, current, orphan]);
    assert.equal(staleLabel(ordered[1]!, ordered), 'superseded by [1]');
    assert.equal(staleLabel(orphan, ordered), 'partly superseded by: "The server now listens on 127.0.0.1:4310."');
    assert.equal(staleLabel(current, ordered), undefined);
    assert.equal(staleLabel({ ...stale, currentness: { status: 'superseded' } }, ordered), 'superseded by a newer memory');
  });

  it('marks the stale memory in the chat list', () => {
    const md = resultList(currentFirst([stale, current]));
    assert.match(md, /^1\. \*\*decision\*\* — Move the reading list/);
    assert.match(md, /\n2\. \*\*decision\*\* — We store the reading list in a JSON file\. _\(2026-06-02, relevance 1\.00\)_ — \*\*superseded by \\\[1\\\]\*\*\n$/);
  });

  it('tells the model which memory is superseded and by what, so it answers with the current fact', () => {
    const p = answerPrompt('how do we store the reading list?', currentFirst([stale, current, orphan]));
    assert.match(p, /^\[1\] \(decision, 2026-06-23\) Move the reading list from the JSON file to SQLite\.$/m);
    assert.match(p, /^\[2\] \(decision, 2026-06-02\) SUPERSEDED by \[1\] — We store the reading list in a JSON file\.$/m);
    assert.match(p, /^\[3\] \(fact, 2026-06-01\) PARTLY SUPERSEDED by: "The server now listens on 127\.0\.0\.1:4310\." — The server listens on port 8080\.$/m);
    assert.match(p, /A memory marked SUPERSEDED is no longer true: answer with what superseded it/);
    assert.doesNotMatch(answerPrompt('q', [current]), /SUPERSEDED/, 'no currentness instruction without a stale memory');
  });

  it('gives memory_recall callers the status, the replacing memory id and the replacing text', () => {
    const t = toolResultText('reading list', [stale, current]);
    const blocks = t.split('\n\n');
    assert.match(blocks[0]!, /^\[1\] id=new type=decision created=2026-06-23 relevance=0\.89\nMove the reading list/);
    assert.match(blocks[1]!, /^\[2\] id=old type=decision created=2026-06-02 relevance=1\.00 status=superseded superseded_by=new\nWe store the reading list in a JSON file\.\nSuperseded by \[1\]\. Do not present this memory as current\.$/);
    assert.equal(toolResultText('nothing', []), 'No memories match "nothing".');
  });

  it('answers without a model from the memories: the best current one cited, the list current first, and how to get composed answers', () => {
    const md = memoriesOnlyAnswer('how do we store the reading list?', [stale, current]);
    assert.match(md, /^From memory \[1\]: Move the reading list from the JSON file to SQLite\.\n/);
    assert.match(md, /\*\*What memory holds about this\*\* \(2, current first\):\n\n1\. \*\*decision\*\* — Move/);
    assert.match(md, /superseded by \\\[1\\\]/);
    assert.ok(md.includes(COMPOSED_ANSWER_HINT));
    assert.match(memoriesOnlyAnswer('q', [stale]), /^Memory holds only superseded answers to "q"; the most relevant is \[1\]\./);
    assert.equal(memoriesOnlyAnswer('q', []), '');
  });

  it('sizes the answer for the chat: the best five, then the "show all" follow-up', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ ...current, id: `m${i}`, content: `Memory number ${i}.` }));
    const md = memoriesOnlyAnswer('q', many, (o) => resultList(o), (total) => `[Show all ${total}](command:x)`);
    assert.match(md, /\(the best 5 of 12, current first\)/);
    assert.deepEqual(md.match(/^\d+\. /gm), ['1. ', '2. ', '3. ', '4. ', '5. ']);
    assert.match(md, /\[Show all 12\]\(command:x\)/);
    assert.doesNotMatch(memoriesOnlyAnswer('q', many.slice(0, 3), (o) => resultList(o), (t) => `[Show all ${t}]`), /Show all/);
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
