import { strict as assert } from 'node:assert';
import { DEFAULT_CONTRADICTION_CONFIG, DEFAULT_NEGATION_TOKENS, resolveContradictionConfig } from '../../../src/core/config/extractionConfig';
import { detectContradiction, detectSyntacticContradiction, parseContradictionAnswer } from '../../../src/core/extraction/contradiction';
import type { LlmClient } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';

const cfg = DEFAULT_CONTRADICTION_CONFIG;
const fakeLlm = (answer: string | (() => Promise<string>)) => {
  const calls: string[] = [];
  const llm: LlmClient = { label: 'fake', complete: async (p) => { calls.push(p); return typeof answer === 'string' ? answer : answer(); } };
  return { llm, calls };
};

describe('contradiction detection', () => {
  it('uses the negation and antonym word lists from the typed config', () => {
    assert.deepEqual([...DEFAULT_NEGATION_TOKENS], ['not', 'no', 'never', 'cannot', 'cant', 'doesnt', 'dont', 'isnt', 'wasnt', 'wont', 'without']);
    assert.ok(cfg.antonymPairs.some(([a, b]) => a === 'enabled' && b === 'disabled'));
  });

  it('flags a negation-polarity difference when at least 2 tokens are shared', () => {
    const r = detectSyntacticContradiction('telemetry is enabled in production', 'telemetry is not enabled in production', cfg);
    assert.equal(r.contradicts, true);
    assert.equal(r.reason, 'negation');
  });

  it('flags an antonym pair conflict', () => {
    const r = detectSyntacticContradiction('the cache flag is enabled', 'the cache flag is disabled', cfg);
    assert.equal(r.reason, 'antonym');
    assert.equal(r.detail, 'enabled/disabled');
  });

  it('needs at least 2 shared tokens', () => {
    assert.equal(detectSyntacticContradiction('enabled', 'disabled', cfg).contradicts, false);
  });

  it('does not flag complementary statements', () => {
    assert.equal(detectSyntacticContradiction('the API uses PostgreSQL', 'the API caches in Redis', cfg).contradicts, false);
  });

  it('honours configured word lists', () => {
    const custom = resolveContradictionConfig({ antonymPairs: [['tabs', 'spaces']] });
    assert.equal(detectSyntacticContradiction('we indent with tabs here', 'we indent with spaces here', custom).reason, 'antonym');
    assert.equal(detectSyntacticContradiction('we indent with tabs here', 'we indent with spaces here', cfg).contradicts, false);
  });

  it('asks the LLM only with 3+ shared tokens after the syntactic path said no', async () => {
    const { llm, calls } = fakeLlm('{"contradicts": true, "confidence": 0.9, "reasoning": "different databases"}');
    const r = await detectContradiction('the API uses PostgreSQL for storage', 'we migrated the API storage to MongoDB', { config: cfg, llm, logger: silentLogger });
    assert.equal(r.contradicts, true);
    assert.equal(r.reason, 'semantic');
    assert.equal(calls.length, 1);
    const few = await detectContradiction('the API uses PostgreSQL', 'MongoDB is web scale', { config: cfg, llm, logger: silentLogger });
    assert.equal(few.contradicts, false);
    assert.equal(calls.length, 1, 'no LLM call below the overlap threshold');
    await detectContradiction('flag is enabled for the api', 'flag is disabled for the api', { config: cfg, llm, logger: silentLogger });
    assert.equal(calls.length, 1, 'no LLM call when the syntactic path already decided');
  });

  it('does not call the LLM when the semantic check is switched off', async () => {
    const { llm, calls } = fakeLlm('{"contradicts": true}');
    const off = resolveContradictionConfig({ semanticEnabled: false });
    const r = await detectContradiction('the API uses PostgreSQL for storage', 'we migrated the API storage to MongoDB', { config: off, llm, logger: silentLogger });
    assert.equal(r.contradicts, false);
    assert.equal(calls.length, 0);
  });

  it('treats an unparsable answer, an error or a timeout as no contradiction', async () => {
    const a = 'the API uses PostgreSQL for storage';
    const b = 'we migrated the API storage to MongoDB';
    const garbage = fakeLlm('I think so?');
    assert.equal((await detectContradiction(a, b, { config: cfg, llm: garbage.llm, logger: silentLogger })).contradicts, false);
    const failing = fakeLlm(() => Promise.reject(new Error('boom')));
    assert.equal((await detectContradiction(a, b, { config: cfg, llm: failing.llm, logger: silentLogger })).contradicts, false);
    const fast = { ...resolveContradictionConfig({}), semanticTimeoutMs: 20 };
    const hanging = fakeLlm(() => new Promise<string>(() => undefined));
    assert.equal((await detectContradiction(a, b, { config: fast, llm: hanging.llm, logger: silentLogger })).contradicts, false);
  });

  it('clamps the semantic timeout to 5–300 s (default 120 s)', () => {
    assert.equal(cfg.semanticTimeoutMs, 120_000);
    assert.equal(resolveContradictionConfig({ semanticTimeoutMs: 1 }).semanticTimeoutMs, 5_000);
    assert.equal(resolveContradictionConfig({ semanticTimeoutMs: 10_000_000 }).semanticTimeoutMs, 300_000);
  });

  it('parses the verdict from fenced JSON with trailing commas, defaulting confidence to 0.5', () => {
    assert.deepEqual(parseContradictionAnswer('```json\n{"contradicts": true, "reasoning": "x",}\n```'), { contradicts: true, confidence: 0.5, reason: 'semantic', detail: 'x' });
    assert.equal(parseContradictionAnswer('{"contradicts": "yes"}'), undefined);
  });
});
