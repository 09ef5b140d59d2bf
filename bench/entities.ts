/**
 * Entity quality on real software text: the StackOverflow NER development split
 * (`../shared/datasets/so-ner/dev.txt`, or AGENT_MEMORY_SO_NER). Each sentence's text goes through
 * an extractor exactly as ingest runs it; the extracted entity names are matched against the
 * sentence's labelled spans, case- and whitespace-insensitively (bench/soNerData.ts `matchKey`).
 * Reports precision, recall, F1, type accuracy (share of matched names whose project type equals
 * the mapped gold type; map in bench/soNerData.ts and docs/extraction.md) and throughput
 * (sentences/s, median of 3 rounds). Header lines and sentences that are only a code placeholder
 * are skipped. The LLM extractor runs with a fake model's fixed answer as a plumbing check only.
 * Also times the extraction of 1,000 development-set memories (bench/data/devset/memories.jsonl)
 * with the default extractor and with the rules-only one it replaced.
 * Writes bench/results/entities.json.
 *
 *   npx tsx bench/entities.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_EXTRACTION_CONFIG } from '../src/core/config/extractionConfig';
import type { ExtractionPayload } from '../src/core/extraction/contract';
import { DEFAULT_ALIAS_RESOLVER } from '../src/core/extraction/entityAliases';
import { RULES_MENTION_VOCABULARY, shippedEntityTagger } from '../src/core/extraction/entityMentions';
import { heuristicExtract } from '../src/core/extraction/heuristicExtractor';
import { createLlmExtractor } from '../src/core/extraction/llmExtractor';
import { silentLogger } from '../src/core/logger';
import { SO_NER_TYPE_MAP, isHeaderSentence, matchKey, readSoNer, sentenceText, soNerDir } from './soNerData';
import type { SoNerSentence } from './soNerData';

interface Scores {
  sentences: number; gold: number; extracted: number; matched: number;
  precision: number; recall: number; f1: number; typeAccuracy: number;
  sentencesPerSecond?: number; msPerSentence?: number; cpuMsPerSentence?: number;
  topFalsePositives: [string, number][]; topMissed: [string, number][];
}

const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const top = (m: Map<string, number>, n = 25): [string, number][] => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

const onlyPlaceholder = (s: SoNerSentence): boolean =>
  s.spans.length === 1 && (s.spans[0]?.label === 'Code_Block' || s.spans[0]?.label === 'Output_Block') && s.spans[0].start === 0 && s.spans[0].end === s.tokens.length;

/** Names match after alias resolution (`JS` and `JavaScript` are one entity), case- and space-insensitively. */
const key = (name: string): string => matchKey(DEFAULT_ALIAS_RESOLVER.canonical(name));

function score(sentences: readonly SoNerSentence[], payloads: readonly ExtractionPayload[]): Scores {
  let gold = 0; let extracted = 0; let matched = 0; let typed = 0;
  const fp = new Map<string, number>(); const missed = new Map<string, number>();
  sentences.forEach((s, i) => {
    const goldByKey = new Map<string, string>();
    for (const sp of s.spans) {
      const type = SO_NER_TYPE_MAP[sp.label];
      if (type) goldByKey.set(key(s.tokens.slice(sp.start, sp.end).join(' ')), type);
    }
    const got = new Map<string, string>();
    for (const e of payloads[i]?.entities ?? []) got.set(key(e.name), e.type);
    gold += goldByKey.size; extracted += got.size;
    for (const [k, type] of got) {
      if (goldByKey.has(k)) { matched++; if (goldByKey.get(k) === type) typed++; } else fp.set(k, (fp.get(k) ?? 0) + 1);
    }
    for (const k of goldByKey.keys()) if (!got.has(k)) missed.set(k, (missed.get(k) ?? 0) + 1);
  });
  const precision = extracted ? matched / extracted : 0;
  const recall = gold ? matched / gold : 0;
  return {
    sentences: sentences.length, gold, extracted, matched,
    precision: round(precision), recall: round(recall), f1: round(precision + recall ? (2 * precision * recall) / (precision + recall) : 0),
    typeAccuracy: round(matched ? typed / matched : 0), topFalsePositives: top(fp), topMissed: top(missed),
  };
}

/**
 * Wall-clock rate (median of 3 rounds) and process CPU time per sentence (median): on a shared,
 * loaded machine the CPU figure is the steadier one.
 */
function timed(texts: readonly string[], run: (t: string) => ExtractionPayload): { payloads: ExtractionPayload[]; sentencesPerSecond: number; msPerSentence: number; cpuMsPerSentence: number } {
  let payloads: ExtractionPayload[] = [];
  const rates: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    payloads = texts.map(run);
    const c = process.cpuUsage(c0);
    rates.push(texts.length / ((performance.now() - t0) / 1000));
    cpu.push((c.user + c.system) / 1000 / texts.length);
  }
  const rate = median(rates);
  return { payloads, sentencesPerSecond: Math.round(rate), msPerSentence: round(1000 / rate, 4), cpuMsPerSentence: round(median(cpu), 4) };
}

async function main(): Promise<void> {
  const dev = readSoNer('dev');
  if (!dev) {
    console.log(`so-ner dev split not found in ${soNerDir()} (set AGENT_MEMORY_SO_NER): entity bench skipped.`);
    return;
  }
  const sentences = dev.filter((s) => !isHeaderSentence(s) && !onlyPlaceholder(s));
  const texts = sentences.map((s) => sentenceText(s.tokens));
  const results: Record<string, Scores> = {};

  const tagger = shippedEntityTagger();
  const variants: Record<string, (t: string) => ExtractionPayload> = {
    // The default extractor as ingest runs it: structural rules + the learned tagger.
    default: (t) => heuristicExtract(t, DEFAULT_EXTRACTION_CONFIG),
    // The extractor before the tagger: capitalisation and code-shape rules only.
    'rules-only (before)': (t) => heuristicExtract(t, DEFAULT_EXTRACTION_CONFIG, RULES_MENTION_VOCABULARY),
    // The tagger's spans alone, no structural rules, no stop lists.
    'tagger-only': (t) => ({ entities: tagger.tag(t).map((sp) => ({ name: sp.name, type: sp.type, description: '' })) }),
  };
  for (const [name, run] of Object.entries(variants)) {
    const t = timed(texts, run);
    results[name] = { ...score(sentences, t.payloads), sentencesPerSecond: t.sentencesPerSecond, msPerSentence: t.msPerSentence, cpuMsPerSentence: t.cpuMsPerSentence };
  }

  // Plumbing only: a fake model that always answers the same payload. Proves the LLM path parses,
  // validates and reaches the same scoring; its figures say nothing about any real model.
  const fake = createLlmExtractor({ label: 'fake fixed answer', complete: async () => '{"entities":[{"name":"Java","type":"tool","description":"a language"}]}' }, DEFAULT_EXTRACTION_CONFIG, silentLogger);
  const llmPayloads: ExtractionPayload[] = [];
  for (const t of texts) llmPayloads.push((await fake.extract(t)).payload);
  results['llm-fake-plumbing'] = score(sentences, llmPayloads);

  for (const [name, r] of Object.entries(results)) {
    console.log(`${name.padEnd(20)} P ${r.precision.toFixed(3)}  R ${r.recall.toFixed(3)}  F1 ${r.f1.toFixed(3)}  type acc ${r.typeAccuracy.toFixed(3)}  ${r.sentencesPerSecond ?? '-'} sentences/s  ${r.cpuMsPerSentence ?? '-'} CPU ms/sentence  (${r.matched}/${r.extracted} extracted, ${r.gold} gold)`);
  }
  const d = results.default;
  if (d) {
    console.log(`frequent false positives: ${d.topFalsePositives.slice(0, 15).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    console.log(`frequent misses: ${d.topMissed.slice(0, 15).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  // Extraction of 1,000 memories (the ingest budget: within +20 % of the extractor it replaced).
  const memFile = join(__dirname, 'data', 'devset', 'memories.jsonl');
  let memories1000: Record<string, { wallMs: number; cpuMs: number }> | undefined;
  if (existsSync(memFile)) {
    const contents = readFileSync(memFile, 'utf8').split('\n').filter(Boolean).slice(0, 1000).map((l) => (JSON.parse(l) as { content: string }).content);
    memories1000 = {};
    for (const [name, vocab] of [['default', undefined], ['rules-only (before)', RULES_MENTION_VOCABULARY]] as const) {
      const t = timed(contents, (c) => heuristicExtract(c, DEFAULT_EXTRACTION_CONFIG, vocab));
      memories1000[name] = { wallMs: Math.round((t.msPerSentence * contents.length)), cpuMs: Math.round(t.cpuMsPerSentence * contents.length) };
      console.log(`extraction of ${contents.length} memories, ${name}: ${memories1000[name]?.wallMs} ms wall (median of 3), ${memories1000[name]?.cpuMs} ms CPU`);
    }
  }
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  // Only figures go to the results file: the frequent false positives and misses are names from the
  // dataset, printed above for error analysis but never written into the repository.
  const figures = Object.fromEntries(Object.entries(results).map(([k, { topFalsePositives: _fp, topMissed: _m, ...rest }]) => [k, rest]));
  writeFileSync(join(__dirname, 'results', 'entities.json'), JSON.stringify({
    date: new Date().toISOString(), split: 'so-ner dev', sentences: sentences.length, typeMap: SO_NER_TYPE_MAP, results: figures, memories1000,
  }, null, 2) + '\n');
}

void main();
