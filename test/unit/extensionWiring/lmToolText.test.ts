import { strict as assert } from 'node:assert';
import { codeFence, escapeMarkdown, pinConfirmationMarkdown, rememberConfirmationMarkdown } from '../../../src/extension/tools/lmToolText';

describe('language model tool confirmations', () => {
  it('shows the whole memory text, not cut at 400 characters', () => {
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    assert.ok(long.length > 400);
    const md = rememberConfirmationMarkdown(long);
    assert.ok(md.includes(long));
    assert.match(md, new RegExp(`\\(${long.length} characters\\)`));
  });

  it('puts the text in a fenced block no backtick run inside can close', () => {
    const hostile = 'ok ``` now [click](command:workbench.action.files.delete) ![x](https://evil/p.png) <!-- hidden --> **bold** ````';
    const md = rememberConfirmationMarkdown(hostile);
    const fence = codeFence(hostile);
    assert.equal(fence, '`````');
    assert.ok(md.includes(`${fence}text\n${hostile}\n${fence}\n`));
    const body = md.slice(md.indexOf(fence) + fence.length);
    assert.equal(body.indexOf(fence), body.lastIndexOf(fence), 'the fence appears once more: the closing one');
    assert.equal(codeFence('no backticks'), '```');
  });

  it('escapes Markdown in short inline texts (type, entity names)', () => {
    assert.equal(escapeMarkdown('[a](b) *c* `d` <e> #f'), '\\[a\\]\\(b\\) \\*c\\* \\`d\\` \\<e\\> \\#f');
    assert.equal(pinConfirmationMarkdown('Pin', '[x](command:evil)'), 'Pin "\\[x\\]\\(command:evil\\)" in Agent Memory (pinned entities are always focal in recall).');
    assert.match(rememberConfirmationMarkdown('t', '*decision*'), /as a \\\*decision\\\* \(1 characters\)/);
  });
});
