import { strict as assert } from 'node:assert';
import { CHAT_LINK_COMMANDS, commandLink, showAllLink } from '../../../src/extension/chat/chatLinks';

/** The command ids of every `command:` link in a markdown text. */
const linkedCommands = (md: string): string[] => [...md.matchAll(/\]\(command:([\w.]+)\?/g)].map((m) => m[1] as string);

describe('@memory answer command links (issue #27)', () => {
  it('the "Show all" follow-up runs: its command is one the trusted answer markdown enables, and it asks @memory /recall the same question', () => {
    const md = showAllLink('how do we store\n the reading list?', 10);
    const commands = linkedCommands(md);
    assert.deepEqual(commands, ['workbench.action.chat.open']);
    // VS Code renders a link to a command not in enabledCommands, and clicking it does nothing.
    for (const c of commands) assert.ok(CHAT_LINK_COMMANDS.includes(c), `${c} is enabled in the answer's trusted markdown`);
    const args = JSON.parse(decodeURIComponent(/\?([^)]+)\)/.exec(md)?.[1] ?? '')) as [{ query: string }];
    assert.deepEqual(args, [{ query: '@memory /recall how do we store the reading list?' }]);
    assert.match(md, /^\n\[Show all 10\]\(command:/);
  });

  it('encodes the arguments so a memory\'s text cannot end the link early', () => {
    const md = commandLink('why?', 'agentMemory.showRecallExplanation', [{ q: 'a) [b](command:evil)' }]);
    assert.deepEqual(linkedCommands(md), ['agentMemory.showRecallExplanation']);
  });
});
