/**
 * Trains the query adapter (src/core/recall/queryAdapter.ts) on the LoCoMo development
 * conversations and checks it leave one conversation out (docs/recall-design.md, "Ninth round").
 *
 * The bundled model embeds each question and each turn (the vectors the stores hold). A linear map
 * W (d × d, starting at the identity) is learned so that softmax(q·W · turn / τ) over the question's
 * conversation puts its weight on the gold turns: a contrastive loss over the 100 turns nearest the
 * raw question plus the gold ones, gradient descent with momentum, pulled towards the identity
 * (L2 on W − I). W − I is then cut to rank 32 (subspace iteration) and stored as int8, the form the
 * product ships (held-out figures are computed with that form). Per fold the map is fitted on four
 * conversations and the fifth's vector-arm R@10 compared with and without it.
 *
 *   AGENT_MEMORY_LOCOMO=../shared/datasets/locomo/locomo-dev.json node --require tsx/cjs bench/trainQueryAdapter.ts [--write]
 *
 * Writes bench/results/queryAdapter.json (per fold the held-out figures and the fold's encoded
 * adapter, which bench/trainOrder.ts and bench/quality.ts use for their held-out runs); with
 * --write, src/core/recall/queryAdapterWeights.ts (fitted on all five).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adaptQuery, decodeQueryAdapter, encodeMatrix } from '../src/core/recall/queryAdapter';
import type { EncodedQueryAdapter, QueryAdapter } from '../src/core/recall/queryAdapter';
import { BenchClock } from './benchEngine';
import { cachedLocomoStore, openLocomoBench } from './locomo';

const WRITE = process.argv.includes('--write');
/** Fit: L2 towards the identity, steps, step size, momentum, softmax temperature, negatives per question, kept rank. */
const L2 = 0.1, STEPS = 60, RATE = 0.5, MOMENTUM = 0.8, TAU = 0.05, NEGATIVES = 100, RANK = 32;

/** One conversation's turns (row-major n × d) and questions with their gold turns (row indices). */
interface ConvData { id: string; d: number; turns: Float32Array; n: number; questions: { q: Float32Array; gold: number[]; category: string }[] }

const dot = (a: Float32Array, ao: number, b: Float32Array | Float64Array, bo: number, d: number): number => {
  let s = 0;
  for (let i = 0; i < d; i++) s += (a[ao + i] as number) * (b[bo + i] as number);
  return s;
};

/** Indices of the turns each question is trained against: its NEGATIVES nearest by raw cosine, and its gold. */
function candidateTurns(c: ConvData): number[][] {
  return c.questions.map(({ q, gold }) => {
    const sims = Array.from({ length: c.n }, (_, j) => [dot(q, 0, c.turns, j * c.d, c.d), j] as const).sort((a, b) => b[0] - a[0]);
    return [...new Set([...sims.slice(0, NEGATIVES).map(([, j]) => j), ...gold])];
  });
}

/** W (d × d, row-major: q' = q·W) fitted on `convs`. */
function fitMap(convs: readonly ConvData[]): Float64Array {
  const d = (convs[0] as ConvData).d;
  const W = new Float64Array(d * d);
  for (let i = 0; i < d; i++) W[i * d + i] = 1;
  const M = new Float64Array(d * d);
  const cands = convs.map(candidateTurns);
  const total = convs.reduce((s, c) => s + c.questions.length, 0);
  const a = new Float64Array(d), r = new Float64Array(d);
  for (let step = 0; step < STEPS; step++) {
    const grad = new Float64Array(d * d);
    convs.forEach((c, ci) => c.questions.forEach(({ q, gold }, qi) => {
      // a = q·W
      a.fill(0);
      for (let i = 0; i < d; i++) { const qv = q[i] as number; if (qv === 0) continue; const row = i * d; for (let j = 0; j < d; j++) a[j] = (a[j] as number) + qv * (W[row + j] as number); }
      const idx = (cands[ci] as number[][])[qi] as number[];
      const logits = idx.map((t) => dot(c.turns, t * d, a, 0, d) / TAU);
      const max = Math.max(...logits);
      const exp = logits.map((x) => Math.exp(x - max));
      const z = exp.reduce((s, x) => s + x, 0);
      // r = Σ (p − target)/τ · turn; the gradient of the loss in W is qᵀ r.
      r.fill(0);
      idx.forEach((t, k) => {
        const coef = ((exp[k] as number) / z - (gold.includes(t) ? 1 / gold.length : 0)) / TAU;
        const o = t * d;
        for (let j = 0; j < d; j++) r[j] = (r[j] as number) + coef * (c.turns[o + j] as number);
      });
      for (let i = 0; i < d; i++) { const qv = q[i] as number; if (qv === 0) continue; const row = i * d; for (let j = 0; j < d; j++) grad[row + j] = (grad[row + j] as number) + qv * (r[j] as number); }
    }));
    for (let i = 0; i < d * d; i++) {
      const g = (grad[i] as number) / total + L2 * ((W[i] as number) - (i % (d + 1) === 0 ? 1 : 0));
      M[i] = MOMENTUM * (M[i] as number) + g;
      W[i] = (W[i] as number) - RATE * (M[i] as number);
    }
  }
  return W;
}

/** W − I cut to rank RANK: D ≈ Y·(Dᵀ·Y)ᵀ with Y the top left singular subspace (subspace iteration). */
function lowRank(W: Float64Array, d: number): { u: Float64Array; v: Float64Array } {
  const D = Float64Array.from(W, (x, i) => x - (i % (d + 1) === 0 ? 1 : 0));
  let seed = 12345;
  const rand = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 - 0.5; };
  let Y: Float64Array = Float64Array.from({ length: d * RANK }, rand);
  const orthonormalise = (X: Float64Array): void => {
    for (let k = 0; k < RANK; k++) {
      for (let p = 0; p < k; p++) {
        let s = 0;
        for (let i = 0; i < d; i++) s += (X[i * RANK + k] as number) * (X[i * RANK + p] as number);
        for (let i = 0; i < d; i++) X[i * RANK + k] = (X[i * RANK + k] as number) - s * (X[i * RANK + p] as number);
      }
      let n = 0;
      for (let i = 0; i < d; i++) n += (X[i * RANK + k] as number) ** 2;
      n = Math.sqrt(n) || 1;
      for (let i = 0; i < d; i++) X[i * RANK + k] = (X[i * RANK + k] as number) / n;
    }
  };
  // Dᵀ·X (d × RANK) and D·X.
  const mulT = (X: Float64Array): Float64Array => { const out = new Float64Array(d * RANK); for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) { const w = D[i * d + j] as number; if (w === 0) continue; for (let k = 0; k < RANK; k++) out[j * RANK + k] = (out[j * RANK + k] as number) + w * (X[i * RANK + k] as number); } return out; };
  const mul = (X: Float64Array): Float64Array => { const out = new Float64Array(d * RANK); for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) { const w = D[i * d + j] as number; if (w === 0) continue; for (let k = 0; k < RANK; k++) out[i * RANK + k] = (out[i * RANK + k] as number) + w * (X[j * RANK + k] as number); } return out; };
  orthonormalise(Y);
  for (let it = 0; it < 30; it++) { Y = mul(mulT(Y)); orthonormalise(Y); }
  return { u: Y, v: mulT(Y) };
}

function encode(W: Float64Array, d: number, modelId: string): EncodedQueryAdapter {
  const { u, v } = lowRank(W, d);
  const eu = encodeMatrix(u, d, RANK), ev = encodeMatrix(v, d, RANK);
  return { modelId, dims: d, rank: RANK, uScale: eu.scale, vScale: ev.scale, u: eu.base64, v: ev.base64 };
}

/** R@10 of the vector arm alone over a conversation's turns, with the question's vector adapted or not. */
function vectorRecall(c: ConvData, adapter: QueryAdapter | undefined): { all: number[]; byCategory: Record<string, number[]> } {
  const all: number[] = [], byCategory: Record<string, number[]> = {};
  for (const { q, gold, category } of c.questions) {
    const qv = adapter ? adaptQuery(q, adapter) : q;
    const top = new Set(Array.from({ length: c.n }, (_, j) => [dot(qv, 0, c.turns, j * c.d, c.d), j] as const).sort((a, b) => b[0] - a[0]).slice(0, 10).map(([, j]) => j));
    const r = gold.filter((g) => top.has(g)).length / gold.length;
    all.push(r);
    (byCategory[category] ??= []).push(r);
  }
  return { all, byCategory };
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

async function main(): Promise<void> {
  const loaded = openLocomoBench();
  if ('absent' in loaded) { console.log(loaded.absent); return; }
  const { model, embedder } = loaded;
  const convs: ConvData[] = [];
  try {
    for (const conv of loaded.conversations) {
      const built = await cachedLocomoStore(conv, embedder, new BenchClock());
      const rows = built.store.read((db) => db.all<{ id: string; content: string }>('SELECT id, content FROM memories WHERE is_deleted = 0 ORDER BY rowid', []));
      await built.engine.close();
      const vecs = await embedder.embed(rows.map((r) => r.content));
      const d = embedder.dims;
      const turns = new Float32Array(rows.length * d);
      vecs.forEach((v, i) => turns.set(v, i * d));
      const bySource = new Map<string, number>();
      rows.forEach((r, i) => { for (const s of built.sourcesById.get(r.id) ?? []) bySource.set(s, i); });
      const qv = await embedder.embed(conv.questions.map((q) => q.query));
      const questions = conv.questions.map((q, i) => ({ q: qv[i] as Float32Array, gold: [...new Set(q.gold.map((g) => bySource.get(g)).filter((x): x is number => x !== undefined))], category: q.category }))
        .filter((q) => q.gold.length > 0);
      convs.push({ id: conv.id, d, turns, n: rows.length, questions });
    }
  } finally {
    await model.dispose();
  }
  const folds: Record<string, { without: number; heldOut: number; questions: number; adapter: EncodedQueryAdapter }> = {};
  const before: number[] = [], after: number[] = [];
  const cats: Record<string, { before: number[]; after: number[] }> = {};
  for (const c of convs) {
    const t0 = Date.now();
    const adapter = encode(fitMap(convs.filter((x) => x !== c)), c.d, embedder.id);
    const b = vectorRecall(c, undefined), h = vectorRecall(c, decodeQueryAdapter(adapter));
    before.push(...b.all); after.push(...h.all);
    for (const k of Object.keys(b.byCategory)) { const e = (cats[k] ??= { before: [], after: [] }); e.before.push(...(b.byCategory[k] as number[])); e.after.push(...(h.byCategory[k] as number[])); }
    folds[c.id] = { without: mean(b.all), heldOut: mean(h.all), questions: c.questions.length, adapter };
    console.log(`held out ${c.id.padEnd(8)} vector-arm R@10 ${mean(b.all).toFixed(3)} -> ${mean(h.all).toFixed(3)} (${c.questions.length} questions, fitted in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  console.log(`cross-validated vector-arm R@10 ${mean(before).toFixed(3)} -> ${mean(after).toFixed(3)}`);
  for (const [k, e] of Object.entries(cats).sort()) console.log(`  category ${k} (${e.before.length}): ${mean(e.before).toFixed(3)} -> ${mean(e.after).toFixed(3)}`);
  const shipped = encode(fitMap(convs), (convs[0] as ConvData).d, embedder.id);
  const fitted = mean(convs.flatMap((c) => vectorRecall(c, decodeQueryAdapter(shipped)).all));
  console.log(`fitted on all five: vector-arm R@10 ${fitted.toFixed(3)} (in sample)`);
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  const settings = { l2: L2, steps: STEPS, rate: RATE, momentum: MOMENTUM, tau: TAU, negatives: NEGATIVES, rank: RANK };
  writeFileSync(join(__dirname, 'results', 'queryAdapter.json'), JSON.stringify({
    date: new Date().toISOString(), settings, crossValidated: { without: mean(before), heldOut: mean(after) },
    byCategory: Object.fromEntries(Object.entries(cats).map(([k, e]) => [k, { without: mean(e.before), heldOut: mean(e.after) }])), tunedOnAll: fitted, folds,
  }, null, 1) + '\n');
  if (WRITE) {
    writeFileSync(join(__dirname, '..', 'src', 'core', 'recall', 'queryAdapterWeights.ts'), `/**
 * Written by bench/trainQueryAdapter.ts (do not edit by hand): the query adapter's weights
 * (queryAdapter.ts), fitted on the LoCoMo development conversations (${convs.reduce((s, c) => s + c.questions.length, 0)} questions; no text of
 * them is here). Leave one conversation out, the vector arm's R@10 went ${mean(before).toFixed(3)} -> ${mean(after).toFixed(3)}
 * (through the whole pipeline: docs/recall-design.md, "Ninth round"). Fit: ${JSON.stringify(settings)}.
 */
import type { EncodedQueryAdapter } from './queryAdapter';

export const QUERY_ADAPTER_WEIGHTS: EncodedQueryAdapter = {
  modelId: '${shipped.modelId}', dims: ${shipped.dims}, rank: ${shipped.rank},
  uScale: [${shipped.uScale.join(', ')}],
  vScale: [${shipped.vScale.join(', ')}],
  u: '${shipped.u}',
  v: '${shipped.v}',
};
`);
    console.log('wrote src/core/recall/queryAdapterWeights.ts');
  }
}

if (require.main === module) main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
