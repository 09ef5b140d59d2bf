import { strict as assert } from 'node:assert';
import { HELD_OUT_PATH, loadCorpus, scoreCorpus } from '../../../bench/captureQualityCorpus';

/** The thresholds on the labelled corpus (bench/captureQuality.ts prints the figures). */
describe('agents: capture quality on the labelled transcript corpus', () => {
  it('has at least 60 turns across the harness formats, every junk kind among them', () => {
    const sessions = loadCorpus();
    assert.ok(sessions.reduce((n, s) => n + s.turns.length, 0) >= 60);
    assert.deepEqual([...new Set(sessions.map((s) => s.format))].sort(), ['claude', 'copilot', 'jsonl']);
    const labels = new Set(sessions.flatMap((s) => s.turns.map((t) => t.label)));
    for (const k of ['planted', 'echo', 'instructions', 'tool-output', 'log', 'stack-trace', 'diff', 'code', 'greeting', 'acknowledgement', 'question', 'duplicate', 'narration']) assert.ok(labels.has(k), k);
  });

  it('stores planted statements with precision ≥ 90 % and recall ≥ 80 %, no echo and no secret', async () => {
    const s = await scoreCorpus();
    assert.ok(s.precision >= 0.9, `precision ${s.precision}: ${JSON.stringify(s.leaks)}`);
    assert.ok(s.recall >= 0.8, `recall ${s.recall}: ${JSON.stringify(s.missed)}`);
    assert.equal(s.echoesStored, 0);
    assert.equal(s.secretsOnDisk, 0);
    // a restated statement adds nothing: it confirms the memory, or (said without a cue) is not read as a statement
    assert.equal(s.byKind.duplicate?.stored, 0, 'no duplicate adds a memory');
    assert.ok(s.confirmedDuplicates > 0, 'restatements confirm');
  });

  it('on the held-out corpus (never used to change a guard): precision ≥ 90 % and recall ≥ 80 %, no echo, no secret', async () => {
    const s = await scoreCorpus(loadCorpus(HELD_OUT_PATH));
    assert.ok(s.turns >= 60, 'a held-out set of the same size class');
    assert.ok(s.precision >= 0.9, `precision ${s.precision}: ${JSON.stringify(s.leaks)}`);
    assert.equal(s.echoesStored, 0);
    assert.equal(s.secretsOnDisk, 0);
    assert.ok(s.recall >= 0.8, `recall ${s.recall}: ${JSON.stringify(s.missed)}`);
  });
});
