/**
 * Regenerates the recall development set (deterministic: same seed, same bytes).
 * Usage: npx tsx scripts/generateDevSet.ts [outDir]   (default bench/data/devset)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVSET_DIR } from '../bench/devset';
import { generateDevSet, serializeDevSet } from '../bench/data/generator/generate';

const outDir = process.argv[2] ?? DEVSET_DIR;
const set = generateDevSet();
const text = serializeDevSet(set);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'memories.jsonl'), text.memories);
writeFileSync(join(outDir, 'questions.jsonl'), text.questions);
const counts = new Map<string, number>();
for (const q of set.questions) counts.set(q.category, (counts.get(q.category) ?? 0) + 1);
console.log(`wrote ${set.memories.length} memories and ${set.questions.length} questions to ${outDir}`);
console.log([...counts.entries()].sort().map(([c, n]) => `${c}=${n}`).join(' '));
