import { strict as assert } from 'node:assert';
import { buildHintsPrompt, parseHints } from '../../../src/core/hints/hintsText';
import { DEFAULT_HINTS_CONFIG, resolveHintsConfig } from '../../../src/core/config/hintsConfig';

describe('prospective hints text', () => {
  it('keeps clean question lines', () => {
    assert.deepEqual(parseHints('Which bundler does the project use?\nHow is the extension built?', 5), ['Which bundler does the project use?', 'How is the extension built?']);
  });

  it('strips think blocks, numbering and bullets', () => {
    const text = '<think>Let me think about diverse questions?</think>\n1. What bundler builds the extension?\n- Why was esbuild chosen over webpack?\n* When did the build switch to esbuild?';
    assert.deepEqual(parseHints(text, 5), ['What bundler builds the extension?', 'Why was esbuild chosen over webpack?', 'When did the build switch to esbuild?']);
  });

  it('drops prompt residue, generic labels and short lines', () => {
    const text = 'Here are 5 diverse questions:\nDirect:\nHowever, we need to consider this?\nWhy that?\nTemporal: When was esbuild adopted for builds?';
    assert.deepEqual(parseHints(text, 5), ['When was esbuild adopted for builds?']);
  });

  it('returns an empty list for empty output', () => {
    assert.deepEqual(parseHints('', 5), []);
    assert.deepEqual(parseHints('```\n```', 5), []);
  });

  it('caps at max and dedupes case-insensitively', () => {
    const text = 'What is the build tool used?\nwhat is the build tool used?\nWho maintains the build scripts?\nWhere do build results go?';
    assert.deepEqual(parseHints(text, 2), ['What is the build tool used?', 'Who maintains the build scripts?']);
  });

  it('asks for the configured number of hints', () => {
    assert.match(buildHintsPrompt('Uses esbuild', 3), /^Write 3 diverse/);
  });

  it('defaults and clamps the settings (enabled false, max 1–20, timeout 5–300 s)', () => {
    assert.equal(DEFAULT_HINTS_CONFIG.enabled, false);
    assert.equal(DEFAULT_HINTS_CONFIG.max, 5);
    assert.equal(DEFAULT_HINTS_CONFIG.timeoutMs, 45_000);
    const c = resolveHintsConfig({ max: 99, timeoutMs: 1 });
    assert.deepEqual([c.max, c.timeoutMs], [20, 5_000]);
    assert.equal(resolveHintsConfig({ max: 0 }).max, 1);
  });
});
