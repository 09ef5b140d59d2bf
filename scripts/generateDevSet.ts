/**
 * Regenerates the recall development set (deterministic: same seed, same bytes).
 * Usage: npx tsx scripts/generateDevSet.ts [outDir]   (default bench/data/devset)
 *        npx tsx scripts/generateDevSet.ts --baseline  (print plain-BM25 figures per category; writes nothing)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVSET_DIR } from '../bench/devset';
import { generateDevSet, serializeDevSet } from '../bench/data/generator/generate';
import { baselineReport } from '../bench/data/generator/lexicalBaseline';

const set = generateDevSet();
if (process.argv[2] === '--baseline') {
  const report = baselineReport(set.memories, set.questions);
  const row = (name: string, s: { count: number; recallAt5: number; recallAt10: number; mrr: number }): string =>
    `${name.padEnd(12)} n=${String(s.count).padStart(3)}  R@5 ${s.recallAt5.toFixed(3)}  R@10 ${s.recallAt10.toFixed(3)}  MRR ${s.mrr.toFixed(3)}`;
  console.log(row('overall', report.overall));
  for (const [name, s] of Object.entries(report.byCategory)) console.log(row(name, s));
  process.exit(0);
}
const outDir = process.argv[2] ?? DEVSET_DIR;
const text = serializeDevSet(set);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'memories.jsonl'), text.memories);
writeFileSync(join(outDir, 'questions.jsonl'), text.questions);
const counts = new Map<string, number>();
for (const q of set.questions) counts.set(q.category, (counts.get(q.category) ?? 0) + 1);
console.log(`wrote ${set.memories.length} memories and ${set.questions.length} questions to ${outDir}`);
console.log([...counts.entries()].sort().map(([c, n]) => `${c}=${n}`).join(' '));
