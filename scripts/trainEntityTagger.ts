/**
 * Trains the entity tagger (src/core/extraction/entityTagger.ts, docs/extraction.md): a greedy
 * averaged perceptron over the features of entityTaggerFeatures.ts, on the StackOverflow NER
 * training split (`../shared/datasets/so-ner/train.txt` or AGENT_MEMORY_SO_NER). Gold spans whose
 * dataset type maps to a project entity type (bench/soNerData.ts) become `B-<type>`/`I-<type>`;
 * everything else is `O`. Then it picks the decode-time `outsideBias` on the dev split (the
 * highest F1 whose precision is at least 0.70) and writes only learned numbers, pruned and
 * rounded, to src/core/extraction/entityTaggerWeights.json.
 *
 *   npx tsx scripts/trainEntityTagger.ts [--epochs N]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTITY_TYPES } from '../src/core/config/extractionConfig';
import { defaultGazetteer } from '../src/core/extraction/entityGazetteer';
import { createEntityTagger, serializeTaggerWeights } from '../src/core/extraction/entityTagger';
import type { TaggerWeights } from '../src/core/extraction/entityTagger';
import { sentenceView, staticFeatures, tagFeatures } from '../src/core/extraction/entityTaggerFeatures';
import { SO_NER_TYPE_MAP, isHeaderSentence, matchKey, readSoNer, soNerDir } from '../bench/soNerData';
import type { SoNerSentence } from '../bench/soNerData';

const EPOCHS = ((): number => { const i = process.argv.indexOf('--epochs'); return i >= 0 ? Number(process.argv[i + 1]) : 8; })();
const PRUNE = 0.05;
const OUT = join(__dirname, '..', 'src', 'core', 'extraction', 'entityTaggerWeights.json');

const TYPES = [...new Set(Object.values(SO_NER_TYPE_MAP))];
const LABELS = ['O', ...TYPES.flatMap((t) => [`B-${t}`, `I-${t}`])];
for (const t of TYPES) if (!(ENTITY_TYPES as readonly string[]).includes(t)) throw new Error(`unknown type ${t}`);

const onlyPlaceholder = (s: SoNerSentence): boolean =>
  s.spans.length === 1 && (s.spans[0]?.label === 'Code_Block' || s.spans[0]?.label === 'Output_Block') && s.spans[0].start === 0 && s.spans[0].end === s.tokens.length;
const usable = (s: SoNerSentence): boolean => !isHeaderSentence(s) && !onlyPlaceholder(s);

function goldTags(s: SoNerSentence): string[] {
  const tags = s.tokens.map(() => 'O');
  for (const sp of s.spans) {
    const type = SO_NER_TYPE_MAP[sp.label];
    if (!type) continue;
    for (let i = sp.start; i < sp.end; i++) tags[i] = `${i === sp.start ? 'B' : 'I'}-${type}`;
  }
  return tags;
}

/** Averaged perceptron state: current weights, running totals and last-update steps per feature. */
class Perceptron {
  readonly w = new Map<string, Float64Array>();
  private readonly total = new Map<string, Float64Array>();
  private readonly stamp = new Map<string, Float64Array>();
  step = 0;
  constructor(private readonly n: number) {}
  score(feats: readonly string[]): Float64Array {
    const s = new Float64Array(this.n);
    for (const f of feats) { const w = this.w.get(f); if (w) for (let c = 0; c < this.n; c++) s[c] = (s[c] as number) + (w[c] as number); }
    return s;
  }
  update(feats: readonly string[], truth: number, guess: number): void {
    for (const f of feats) {
      let w = this.w.get(f);
      if (!w) { w = new Float64Array(this.n); this.w.set(f, w); this.total.set(f, new Float64Array(this.n)); this.stamp.set(f, new Float64Array(this.n)); }
      const tot = this.total.get(f) as Float64Array; const st = this.stamp.get(f) as Float64Array;
      for (const [c, d] of [[truth, 1], [guess, -1]] as const) {
        tot[c] = (tot[c] as number) + (this.step - (st[c] as number)) * (w[c] as number);
        st[c] = this.step;
        w[c] = (w[c] as number) + d;
      }
    }
  }
  averaged(): Map<string, Float64Array> {
    const out = new Map<string, Float64Array>();
    for (const [f, w] of this.w) {
      const tot = this.total.get(f) as Float64Array; const st = this.stamp.get(f) as Float64Array;
      const avg = new Float64Array(this.n);
      for (let c = 0; c < this.n; c++) avg[c] = ((tot[c] as number) + (this.step - (st[c] as number)) * (w[c] as number)) / Math.max(1, this.step);
      out.set(f, avg);
    }
    return out;
  }
}

/** Deterministic shuffle (a fixed linear congruential sequence) so training is reproducible. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const a = [...xs]; let s = seed;
  for (let i = a.length - 1; i > 0; i--) { s = (s * 1103515245 + 12345) % 2147483648; const j = s % (i + 1); [a[i], a[j]] = [a[j] as T, a[i] as T]; }
  return a;
}

function serialise(weights: Map<string, Float64Array>, outsideBias: number): TaggerWeights {
  const out = new Map<string, [number, number][]>();
  for (const [f, w] of weights) {
    const kept: [number, number][] = [];
    w.forEach((v, c) => { if (Math.abs(v) >= PRUNE) kept.push([c, Math.round(v * 100) / 100]); });
    if (kept.length) out.set(f, kept);
  }
  return { labels: LABELS, weights: out, outsideBias };
}

/** Span-name P/R/F1 on dev with the tagger's own tokens (the bench measures the whole extractor). */
function evaluate(model: TaggerWeights, dev: readonly SoNerSentence[]): { p: number; r: number; f1: number } {
  const gaz = defaultGazetteer();
  const tagger = createEntityTagger(model, (lw) => gaz.has(lw));
  let gold = 0; let got = 0; let hit = 0;
  for (const s of dev) {
    const g = new Set(s.spans.filter((sp) => SO_NER_TYPE_MAP[sp.label]).map((sp) => matchKey(s.tokens.slice(sp.start, sp.end).join(' '))));
    const tags = tagger.tagWords(s.tokens);
    const e = new Set<string>();
    let cur: string[] = [];
    const flush = (): void => { if (cur.length) e.add(matchKey(cur.join(' '))); cur = []; };
    tags.forEach((t, i) => { if (t.startsWith('B-') || (t.startsWith('I-') && !cur.length)) { flush(); cur = [s.tokens[i] as string]; } else if (t.startsWith('I-')) cur.push(s.tokens[i] as string); else flush(); });
    flush();
    gold += g.size; got += e.size; for (const k of e) if (g.has(k)) hit++;
  }
  const p = got ? hit / got : 0; const r = gold ? hit / gold : 0;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}

function main(): void {
  const train = readSoNer('train')?.filter(usable);
  const dev = readSoNer('dev')?.filter(usable);
  if (!train || !dev) { console.error(`so-ner train/dev not found in ${soNerDir()} (set AGENT_MEMORY_SO_NER).`); process.exitCode = 1; return; }
  const gaz = defaultGazetteer();
  const inGaz = (lw: string): boolean => gaz.has(lw);
  const model = new Perceptron(LABELS.length);
  const index = new Map(LABELS.map((l, i) => [l, i]));
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    let correct = 0; let total = 0;
    for (const s of shuffled(train, 7 + epoch)) {
      const gold = goldTags(s);
      const view = sentenceView(s.tokens);
      const statics = s.tokens.map((_, i) => staticFeatures(view, i, inGaz));
      const tags: string[] = [];
      for (let i = 0; i < s.tokens.length; i++) {
        // Train on the model's own previous guesses, as it will decode.
        const feats = [...(statics[i] as string[]), ...tagFeatures((s.tokens[i] as string).toLowerCase(), tags[i - 1] ?? '<s>', tags[i - 2] ?? '<s>')];
        const scores = model.score(feats);
        let guess = 0; for (let c = 1; c < LABELS.length; c++) if ((scores[c] as number) > (scores[guess] as number)) guess = c;
        const truth = index.get(gold[i] as string) as number;
        model.step++;
        if (guess !== truth) model.update(feats, truth, guess); else correct++;
        total++;
        tags.push(LABELS[guess] as string);
      }
    }
    console.log(`epoch ${epoch + 1}: token accuracy ${(correct / total).toFixed(4)}`);
  }
  const averaged = model.averaged();
  let best: { bias: number; p: number; r: number; f1: number } | undefined;
  for (const bias of [-4, -3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1]) {
    const m = evaluate(serialise(averaged, bias), dev);
    console.log(`outsideBias ${bias}: P ${m.p.toFixed(3)} R ${m.r.toFixed(3)} F1 ${m.f1.toFixed(3)}`);
    if (m.p >= 0.7 && (!best || m.f1 > best.f1)) best = { bias, ...m };
  }
  const chosen = serialise(averaged, best?.bias ?? 0);
  const json = JSON.stringify(serializeTaggerWeights(chosen));
  writeFileSync(OUT, json + '\n');
  console.log(`chose outsideBias ${chosen.outsideBias}; ${chosen.weights.size} features, ${(json.length / 1e6).toFixed(2)} MB → ${OUT}`);
}

main();
