import { strict as assert } from 'node:assert';
import { DEFAULT_CHUNKING_CONFIG, resolveChunkingConfig } from '../../../src/core/config/ingestConfig';
import { chunkContent } from '../../../src/core/memory/chunking';

const sentence = (i: number) => `Sentence number ${i} talks about the memory write path in some detail.`;

describe('content chunking', () => {
  it('keeps content up to maxContentChars as one chunk', () => {
    const text = 'x'.repeat(DEFAULT_CHUNKING_CONFIG.maxContentChars);
    assert.deepEqual(chunkContent(text, DEFAULT_CHUNKING_CONFIG), [text]);
  });

  it('packs sentences toward the target and overlaps each chunk but the last', () => {
    const text = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkContent(text, DEFAULT_CHUNKING_CONFIG);
    assert.ok(chunks.length >= 4);
    const overlap = Math.floor(DEFAULT_CHUNKING_CONFIG.chunkTargetChars * DEFAULT_CHUNKING_CONFIG.overlapRatio);
    for (let i = 0; i < chunks.length - 1; i++) {
      const c = chunks[i] as string;
      assert.ok(c.length <= DEFAULT_CHUNKING_CONFIG.chunkTargetChars + overlap + 1, `chunk ${i} is ${c.length}`);
      const nextStart = (chunks[i + 1] as string).slice(0, 30);
      assert.ok(c.includes(nextStart), 'chunk carries the start of the next one');
    }
    for (let i = 0; i < 40; i++) assert.ok(chunks.some((c) => c.includes(sentence(i))), `sentence ${i} kept`);
  });

  it('hard-splits a sentence longer than twice the target', () => {
    const cfg = resolveChunkingConfig({ overlapRatio: 0 });
    const text = 'a'.repeat(cfg.chunkTargetChars * 3);
    const chunks = chunkContent(text, cfg);
    assert.deepEqual(chunks.map((c) => c.length), [cfg.chunkTargetChars, cfg.chunkTargetChars, cfg.chunkTargetChars]);
  });

  it('clamps configuration into range', () => {
    const cfg = resolveChunkingConfig({ chunkTargetChars: 5, overlapRatio: 3, maxContentChars: 1 });
    assert.equal(cfg.chunkTargetChars, 100);
    assert.equal(cfg.overlapRatio, 0.5);
    assert.equal(cfg.maxContentChars, 100);
  });
});
