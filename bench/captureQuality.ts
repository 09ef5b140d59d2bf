/**
 * Capture quality on the labelled agent-transcript corpus (test/fixtures/agentCapture/corpus.json,
 * docs/agents.md "Measured"): precision (stored memories that are planted statements), recall
 * (planted statements stored), echoes stored, secrets on disk, and per kind the turns that stored
 * something, on the in-sample corpus and apart on the held-out one (heldOut.json, never used to
 * change a guard). Writes bench/results/captureQuality.json.
 *   node --require tsx/cjs bench/captureQuality.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { HELD_OUT_PATH, loadCorpus, scoreCorpus } from './captureQualityCorpus';
import type { CorpusScore } from './captureQualityCorpus';

function perKindOf(s: CorpusScore): Record<string, { turns: number; storedFrom: number; recall?: number; rejected?: number }> {
  return Object.fromEntries(Object.entries(s.byKind).sort().map(([k, v]) => [k, {
    turns: v.turns, storedFrom: v.stored,
    ...(k.startsWith('planted:') ? { recall: v.turns ? v.stored / v.turns : 1 } : { rejected: v.turns ? 1 - v.stored / v.turns : 1 }),
  }]));
}

function summary(name: string, s: CorpusScore, sessions: number): void {
  console.log(`${name} (${s.turns} turns, ${sessions} sessions): precision ${(s.precision * 100).toFixed(1)} %, recall ${(s.recall * 100).toFixed(1)} %, echoes stored ${s.echoesStored}, secrets on disk ${s.secretsOnDisk}`);
  for (const [k, v] of Object.entries(perKindOf(s))) console.log(`  ${k.padEnd(22)} turns ${String(v.turns).padStart(2)}  stored from ${v.storedFrom}`);
}

async function main(): Promise<void> {
  const sessions = loadCorpus();
  const s = await scoreCorpus(sessions);
  const heldSessions = loadCorpus(HELD_OUT_PATH);
  const h = await scoreCorpus(heldSessions);
  const out = {
    bench: 'captureQuality', at: new Date().toISOString(), loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
    corpus: { sessions: sessions.length, turns: s.turns, formats: [...new Set(sessions.map((x) => x.format))], planted: s.planted },
    precision: s.precision, recall: s.recall, storedTotal: s.storedTotal, echoesStored: s.echoesStored, secretsOnDisk: s.secretsOnDisk,
    duplicates: { turns: s.duplicates, confirmedInsteadOfAdded: s.confirmedDuplicates },
    perKind: perKindOf(s), leaks: s.leaks, missed: s.missed,
    note: 'The guards were written while looking at this corpus: these are in-sample figures. heldOut is the out-of-sample check.',
    heldOut: {
      sessions: heldSessions.length, turns: h.turns, planted: h.planted, precision: h.precision, recall: h.recall, storedTotal: h.storedTotal,
      echoesStored: h.echoesStored, secretsOnDisk: h.secretsOnDisk, duplicates: { turns: h.duplicates, confirmedInsteadOfAdded: h.confirmedDuplicates },
      perKind: perKindOf(h), leaks: h.leaks, missed: h.missed,
    },
  };
  summary('capture quality, in-sample corpus', s, sessions.length);
  summary('capture quality, held-out corpus', h, heldSessions.length);
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'captureQuality.json'), JSON.stringify(out, null, 2) + '\n');
}

void main();
