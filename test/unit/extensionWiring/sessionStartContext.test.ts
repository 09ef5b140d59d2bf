import { strict as assert } from 'node:assert';
import { answerPrompt } from '../../../src/extension/chat/recallFormat';
import { sessionStartMarkdown, sessionStartPromptSection, sessionStartToolText } from '../../../src/extension/chat/sessionStartContext';
import type { RecallResult } from '../../../src/core/recall/recallTypes';

const recalled: RecallResult = { id: 'r1', sourceId: null, content: 'The shelf service stores reading lists in SQLite.', score: 0.9, relevance: 1, type: 'decision', createdAt: '2026-03-04T05:06:07.000Z' };
const started = [
  { id: 's1', content: 'We deploy with\n Docker   compose.' },
  { id: 's2', content: 'Port [4310](command:x) is *the* server port.' },
];

describe('session-start memories delivered with the first answer', () => {
  it('puts every session-start memory into the model prompt, numbered after the recalled ones', () => {
    const prompt = answerPrompt('which database?', [recalled], sessionStartPromptSection(started, 2));
    assert.match(prompt, /\[1\] \(decision, 2026-03-04\) The shelf service stores reading lists in SQLite\./);
    assert.match(prompt, /Memories loaded at the start of this conversation[^\n]*cite them as \[n\]/);
    assert.match(prompt, /\n\[2\] We deploy with Docker compose\.\n\[3\] Port \[4310\]\(command:x\) is \*the\* server port\./);
    assert.ok(prompt.indexOf('[3] Port') < prompt.indexOf('Question: which database?'), 'the question comes last');
  });

  it('leaves the prompt as it was when nothing was injected', () => {
    assert.equal(sessionStartPromptSection([], 2), '');
    assert.equal(answerPrompt('q', [recalled], sessionStartPromptSection([], 2)), answerPrompt('q', [recalled]));
  });

  it('shows the same numbers under the answer, escaped so a memory cannot inject links', () => {
    const md = sessionStartMarkdown(started, 2);
    // One line, however many memories: the memories are the answer's (collapsed) references.
    assert.equal(md.trim().split('\n').length, 1);
    assert.match(md, /^\n\n_Also loaded at the start of this conversation: 2 memories \(cited \[2\]–\[3\]; by importance and recency, e\.g\. "We deploy with Docker compose\."\), listed under References\._\n$/);
    assert.doesNotMatch(sessionStartMarkdown([{ id: 'x', content: 'Port [4310](command:x) is the port' }], 1), /\]\(command:/);
    assert.equal(sessionStartMarkdown([], 1), '');
  });

  it('names no numbers when nothing in the answer cites them (the memories-only answer shows its best five)', () => {
    const md = sessionStartMarkdown(started, undefined);
    assert.match(md, /^\n\n_Also loaded at the start of this conversation: 2 memories \(by importance and recency, e\.g\. "We deploy with Docker compose\."\), listed under References\._\n$/);
    assert.doesNotMatch(md, /cited|\[\d/);
  });

  it('marks the session-start block of a tool result with each memory id and whole text', () => {
    const text = sessionStartToolText(started);
    assert.match(text, /^\n\nSession-start memories \(loaded once, at the start of this tool session/);
    assert.match(text, /\[S1\] id=s1\nWe deploy with\n Docker {3}compose\.\n\n\[S2\] id=s2\nPort \[4310\]/);
    assert.equal(sessionStartToolText([]), '');
  });
});
