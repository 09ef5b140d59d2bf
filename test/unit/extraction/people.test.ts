import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { DEFAULT_MENTION_VOCABULARY } from '../../../src/core/extraction/entityMentions';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';
import { isPersonName } from '../../../src/core/extraction/people';

const entities = (t: string, who?: string) => (heuristicExtract(t, DEFAULT_EXTRACTION_CONFIG, DEFAULT_MENTION_VOCABULARY, who ? { who } : {}).entities ?? []).map((e) => `${e.name}:${e.type}`);

describe('people in conversations', () => {
  it('makes a speaker with a personal name a person, and agent labels nothing', () => {
    assert.ok(entities('I finally finished the painting.', 'Melanie').includes('Melanie:person'));
    for (const who of ['user', 'claude-code', 'copilot-agent', 'Maybe', 'Friday']) assert.equal(isPersonName(who, DEFAULT_MENTION_VOCABULARY), false, who);
    assert.deepEqual(entities('I finally finished the painting.', 'claude-code'), []);
  });

  it('reads transcript speaker prefixes, greetings and speech verbs as people', () => {
    assert.deepEqual(entities('Caroline: I went to the support group yesterday.', 'Caroline'), ['Caroline:person']);
    assert.deepEqual(entities('Caroline: I went to the support group.\nMelanie: How was it?').sort(), ['Caroline:person', 'Melanie:person']);
    assert.deepEqual(entities('Decision: we keep the list in one file.'), [], 'a lone line prefix is a heading, not a speaker');
    assert.ok(entities('Hi Sam, the Postgres migration is done.').includes('Sam:person'));
    assert.ok(entities('Thanks, Melanie! See you in May.').includes('Melanie:person'));
    assert.ok(entities('Jon said the deploy failed.').includes('Jon:person'));
  });

  it('types a later mention of a known person as a person, not a concept', () => {
    const e = entities('Caroline: Melanie said hello. Later Melanie and I fixed the build.', 'Caroline');
    assert.ok(e.includes('Melanie:person') && e.includes('Caroline:person'), e.join(', '));
    assert.equal(e.filter((x) => x.startsWith('Melanie:')).length, 1);
  });

  it('never turns sentence starts, weekdays, months or courtesy words into entities', () => {
    assert.deepEqual(entities('Maybe we meet on Friday. Thanks for the help! Sure, in March.'), []);
  });
});
