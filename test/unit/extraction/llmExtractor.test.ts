import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { createHeuristicExtractor, createLlmExtractor, extractionPrompt } from '../../../src/core/extraction/llmExtractor';
import type { LlmClient } from '../../../src/core/hostContext';
import { createRecordingLogger } from '../../../src/core/logger';

const llmAnswering = (answer: string | Error): LlmClient => ({
  label: 'fake',
  complete: async () => { if (answer instanceof Error) throw answer; return answer; },
});
const TEXT = 'The API uses PostgreSQL.';

describe('LLM extraction provider', () => {
  it('documents the contract, both optional blocks and an example in the prompt', () => {
    const p = extractionPrompt('note');
    for (const s of ['"entities"', '"relations"', '"facts"', 'claim_key', 'Example:', 'note']) assert.ok(p.includes(s), s);
  });

  it('uses a valid LLM answer wrapped in <think>, fences and prose', async () => {
    const answer = '<think>hmm</think>Sure:\n```json\n{"entities":[{"name":"API","type":"system","description":"x"}]}\n```\nAnything else?';
    const r = await createLlmExtractor(llmAnswering(answer), DEFAULT_EXTRACTION_CONFIG, createRecordingLogger()).extract(TEXT);
    assert.equal(r.source, 'llm');
    assert.deepEqual(r.payload.entities?.map((e) => e.name), ['API']);
  });

  it('keeps the valid part of an answer and reports the skipped items', async () => {
    const answer = '{"entities":[{"name":"API","type":"system","description":""},{"name":"X","type":"CONCEPT","description":""}]}';
    const r = await createLlmExtractor(llmAnswering(answer), DEFAULT_EXTRACTION_CONFIG, createRecordingLogger()).extract(TEXT);
    assert.equal(r.payload.entities?.length, 1);
    assert.deepEqual(r.issues.map((i) => i.path), ['entities/1/type']);
  });

  it('falls back to the heuristic result on garbage and never throws', async () => {
    const log = createRecordingLogger();
    const r = await createLlmExtractor(llmAnswering('I cannot help with that.'), DEFAULT_EXTRACTION_CONFIG, log).extract(TEXT);
    assert.equal(r.source, 'heuristic-fallback');
    assert.deepEqual(r.payload, (await createHeuristicExtractor(DEFAULT_EXTRACTION_CONFIG).extract(TEXT)).payload);
    assert.ok(log.lines.some((l) => l.level === 'warn'));
  });

  it('falls back to the heuristic result when the LLM call fails', async () => {
    const r = await createLlmExtractor(llmAnswering(new Error('offline')), DEFAULT_EXTRACTION_CONFIG, createRecordingLogger()).extract(TEXT);
    assert.equal(r.source, 'heuristic-fallback');
    assert.ok(r.payload.relations?.length);
  });

  it('treats an explicit empty object as "nothing to declare", not as garbage', async () => {
    const r = await createLlmExtractor(llmAnswering('{}'), DEFAULT_EXTRACTION_CONFIG, createRecordingLogger()).extract('ok thanks');
    assert.equal(r.source, 'llm');
    assert.deepEqual(r.payload, {});
  });
});
