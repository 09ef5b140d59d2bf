/**
 * A plain BM25 reference ranking over the development set (no stemming, no stop-word list beyond
 * a small English one, CJK as character bigrams, no project scoping, no dates). It documents how
 * far pure term matching gets on each category, so a tuned recall pipeline has a floor to beat.
 */
import type { DevMemory, DevQuestion } from '../../devset';
import { aggregate, scoreQuestion } from '../../devset';
import type { AggregateReport } from '../../devset';

/** Standard BM25 constants (Robertson/Sparck Jones defaults). */
const K1 = 1.2;
const B = 0.75;
const STOP = new Set('a an the of to in on for and or is are was were do does did we our i you it what which where why how when who should can with be by at from this that about as me my us any there their them than then has have had not no must'.split(' '));

export function baselineTokens(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/[a-z0-9_]+|[\u4e00-\u9fff]+/g) ?? []) {
    if (/[\u4e00-\u9fff]/.test(run)) {
      if (run.length === 1) out.push(run);
      for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
    } else if (!STOP.has(run)) {
      out.push(run);
    }
  }
  return out;
}

export interface Bm25Index {
  rank(query: string, k: number): string[];
}

export function buildBm25(memories: readonly DevMemory[]): Bm25Index {
  const docs = memories.map((m) => {
    const tf = new Map<string, number>();
    const toks = baselineTokens(m.content);
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id: m.sourceId, tf, len: toks.length };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.len, 0) / Math.max(1, n);
  return {
    rank(query, k) {
      const terms = [...new Set(baselineTokens(query))];
      const scored: Array<[string, number]> = [];
      for (const d of docs) {
        let s = 0;
        for (const t of terms) {
          const f = d.tf.get(t);
          if (f === undefined) continue;
          const dft = df.get(t) ?? 0;
          s += Math.log(1 + (n - dft + 0.5) / (dft + 0.5)) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.len) / avg)));
        }
        if (s > 0) scored.push([d.id, s]);
      }
      scored.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      return scored.slice(0, k).map(([id]) => id);
    },
  };
}

/** recall@5, recall@10 and MRR of plain BM25 on every question, overall and per category. */
export function baselineReport(memories: readonly DevMemory[], questions: readonly DevQuestion[]): AggregateReport {
  const index = buildBm25(memories);
  return aggregate(questions.map((q) => scoreQuestion(q, index.rank(q.query, 50))));
}
