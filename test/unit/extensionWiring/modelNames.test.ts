/**
 * One name for each model everywhere (issue #27, Deliver 9): the model that composes @memory
 * answers is the chat model (the picker's memory-only model included), `agentMemory.llm.*` is the
 * extraction model; the picker, Status, the settings, the commands and the README agree.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_MODEL_STATUS_LINE, EXTRACTION_MODEL_LABEL, MEMORY_ONLY_MODEL_NAME } from '../../../src/extension/chat/modelNames';
import { ROOT } from '../models/modelFixture';

interface Contributes {
  commands: { command: string; title: string }[];
  languageModelChatProviders: { vendor: string; displayName: string }[];
  configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> }[];
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: Contributes };
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const LLM_COMMANDS = ['agentMemory.enableLanguageModel', 'agentMemory.setLlmApiKey', 'agentMemory.reviewLanguageModelConsent'];

describe('model names: the chat model composes answers, agentMemory.llm is the extraction model', () => {
  it('the picker\'s memory-only model has one name in package.json, Status and the README', () => {
    assert.deepEqual(pkg.contributes.languageModelChatProviders.map((p) => p.displayName), [MEMORY_ONLY_MODEL_NAME]);
    assert.ok(CHAT_MODEL_STATUS_LINE.includes(MEMORY_ONLY_MODEL_NAME));
    const named = [...readme.matchAll(/\*Agent Memory \(no [^)]*\)\*/g)].map((m) => m[0]);
    assert.ok(named.length > 0, 'the README names the picker model');
    assert.deepEqual([...new Set(named)], [`*${MEMORY_ONLY_MODEL_NAME}*`], 'every README mention uses the picker\'s name');
  });

  it('Status, the agentMemory.llm commands and the provider setting call agentMemory.llm the extraction model, never the chat model', () => {
    assert.match(EXTRACTION_MODEL_LABEL, /^Extraction model \(agentMemory\.llm\)$/);
    assert.match(CHAT_MODEL_STATUS_LINE, /^Chat model \(composes @memory answers\)/);
    const titles = pkg.contributes.commands.filter((c) => LLM_COMMANDS.includes(c.command)).map((c) => c.title);
    assert.equal(titles.length, LLM_COMMANDS.length);
    for (const t of titles) assert.match(t, /Extraction Model/, t);
    const props = Object.assign({}, ...pkg.contributes.configuration.map((c) => c.properties)) as Contributes['configuration'][0]['properties'];
    assert.match(props['agentMemory.llm.provider']?.description ?? '', /^Extraction model: .*not the chat model that composes @memory answers/);
    assert.match(readme, /\| `llm\.\*` \| the extraction model \(not the chat model that composes `@memory` answers\)/);
  });
});
