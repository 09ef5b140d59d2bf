/**
 * Expands one project spec into placed memories (targets, targeted distractors, noise) and the
 * questions that point at them by reference. References become sourceIds once every project is
 * assembled (see generateDevSet.ts).
 */
import { frameEvent, frameTarget } from './framing';
import { decisionDistractor, EN_NOISE, sessionSummary } from './noiseEn';
import type { NoiseDraft } from './noiseEn';
import { zhNoise } from './noiseZh';
import type { Rng } from './prng';
import { place, seriesPositions, DEVSET_NOW } from './timeline';
import type { DevCategory, DevMemoryType, Item, ProjectSpec } from './specTypes';

export interface DraftMemory {
  ref?: string;
  content: string;
  type: DevMemoryType;
  createdAt: string;
  sessionId: string;
  project: string;
  who: string;
  tags?: string[];
}

export interface DraftQuestion {
  query: string;
  /** The authored question without the project reference (use with project scoping). */
  scopedQuery: string;
  gold: string[];
  category: DevCategory;
  project: string;
  asOf?: string;
  notes?: string;
  hardNegatives?: string[];
}

interface Pending {
  ref?: string;
  pos: number;
  type: DevMemoryType;
  who: string;
  tags?: string[];
  render: (createdAt: string) => string;
}

/** A leading plain capitalised word ("What", "At", "Some") is lower-cased after a lead-in; identifiers are kept. */
/** Position gaps (share of the project timeline) between successive values of a chain / events of a series. */
const CHAIN_GAP = { min: 0.14, max: 0.3 };
const EVENT_GAP = { min: 0.1, max: 0.22 };
/** Share of English noise drawn as a long multi-paragraph session summary. */
const SUMMARY_SHARE = 0.05;

const PLAIN_WORD = /^[A-Z][a-z]*\b(?![./_-])/;

/** Adds a natural project reference to an authored question (unless it already names the project). */
export function withProject(q: string, name: string, rng: Rng): string {
  const roll = rng.next();
  if (q.toLowerCase().includes(name.toLowerCase())) return q;
  const lc = PLAIN_WORD.test(q) ? q.charAt(0).toLowerCase() + q.slice(1) : q;
  if (roll < 0.35) return `In ${name}, ${lc}`;
  if (roll < 0.6 && q.endsWith('?') && !q.includes(',') && !q.includes('. ')) return `${q.slice(0, -1)} in ${name}?`;
  if (roll < 0.85) return `${name}: ${q}`;
  return `(${name}) ${q}`;
}

/** [self-contained query, the same without the project name]. */
function multiQuery(a: string, b: string, name: string, rng: Rng): [string, string] {
  return rng.pick<[string, string]>([
    [`In ${name}, remind me ${a} and ${b}.`, `Remind me ${a} and ${b}.`],
    [`Two things about ${name}: ${a}, and ${b}?`, `Two things: ${a}, and ${b}?`],
    [`For ${name} I need to know ${a} as well as ${b}.`, `I need to know ${a} as well as ${b}.`],
    [`${name} question: ${a}, plus ${b}?`, `Question: ${a}, plus ${b}?`],
  ]);
}

/** Whether the preference/constraint was said by the user rather than noted by an agent. */
function speaker(type: DevMemoryType, rng: Rng, spec: ProjectSpec): string {
  if (type === 'preference' || (type === 'constraint' && rng.chance(0.7))) return 'user';
  if (type === 'decision' && rng.chance(0.4)) return 'user';
  return rng.pick(spec.agents);
}

/** `seenText` is shared across projects so no two memories of the set have the same content. */
export function assembleProject(spec: ProjectSpec, rng: Rng, seenText: Set<string>): { memories: DraftMemory[]; questions: DraftQuestion[] } {
  const pending: Pending[] = [];
  const questions: DraftQuestion[] = [];
  const ref = (kind: string, key: string): string => `${spec.key}:${kind}:${key}`;
  const byKey = new Map<string, { item: Item; ref: string }>();
  const seen = new Set<string>();

  const addTarget = (kind: string, item: Item, type: DevMemoryType, isFile = false, pos = rng.next()): string => {
    const r = ref(kind, item.key);
    if (seen.has(r)) throw new Error(`duplicate item key ${r}`);
    seen.add(r);
    const framed = frameTarget(type, item.text, rng, spec, isFile);
    pending.push({ ref: r, pos, type, who: speaker(type, rng, spec), tags: framed.tags, render: () => framed.content });
    byKey.set(item.key, { item, ref: r });
    return r;
  };
  const ask = (query: string, gold: string[], category: DevCategory, extra: Partial<DraftQuestion> = {}): void => {
    questions.push({ query: withProject(query, spec.name, rng), scopedQuery: query, gold, category, project: spec.key, ...extra });
  };
  const askItem = (item: Item, r: string, category: DevCategory, extra: Partial<DraftQuestion> = {}): void => {
    ask(item.q, [r], item.cat ?? category, extra);
    if (item.para) ask(item.para, [r], 'paraphrase', { ...extra, notes: 'low word overlap with the gold memory' });
  };

  for (const d of spec.decisions) {
    const r = addTarget('decision', d, 'decision');
    const negs: string[] = [];
    for (let i = 0; i < rng.int(1, 2); i++) {
      const nr = `${r}:near${i}`;
      const draft = decisionDistractor(rng, spec, d.topic, d.alt);
      if (seenText.has(draft.content)) continue;
      seenText.add(draft.content);
      pending.push({ ref: nr, pos: rng.next(), type: draft.type, who: rng.pick(spec.agents), render: () => draft.content });
      negs.push(nr);
    }
    askItem(d, r, 'decision', { hardNegatives: negs });
  }
  for (const p of spec.preferences) askItem(p, addTarget('pref', p, 'preference'), 'preference');
  for (const f of spec.files) askItem(f, addTarget('file', f, 'fact', true), 'file-fact');
  for (const b of spec.bugs) askItem(b, addTarget('bug', b, 'bug'), 'identifier');
  for (const f of spec.facts) askItem(f, addTarget('fact', f, f.type ?? 'fact'), 'fact');

  for (const c of spec.chains) {
    const positions = seriesPositions(rng, c.versions.length, CHAIN_GAP.min, CHAIN_GAP.max);
    const refs = c.versions.map((text, i) => addTarget('chain', { key: `${c.key}#${i}`, text, q: c.q }, 'fact', false, positions[i]));
    const current = refs[refs.length - 1];
    const older = refs.slice(0, -1);
    ask(c.q, [current], 'superseded', { asOf: DEVSET_NOW, hardNegatives: older, notes: 'gold is the current value; older values are superseded' });
    if (c.para) ask(c.para, [current], 'paraphrase', { asOf: DEVSET_NOW, hardNegatives: older, notes: 'low word overlap; current value' });
    if (c.hq) ask(c.hq, [older[older.length - 1]], 'historical', { hardNegatives: [current], notes: 'asks for the value before the current one' });
    if (c.ask) byKey.set(c.key, { item: { key: c.key, text: c.versions[c.versions.length - 1], q: c.q, ask: c.ask }, ref: current });
  }

  for (const e of spec.events) {
    const positions = seriesPositions(rng, e.events.length, EVENT_GAP.min, EVENT_GAP.max);
    const refs = e.events.map((text, i) => {
      const r = ref('event', `${e.key}#${i}`);
      pending.push({ ref: r, pos: positions[i], type: 'event', who: rng.pick(spec.agents), render: (at) => frameEvent(text, at, rng) });
      return r;
    });
    ask(e.q, [refs[refs.length - 1]], 'temporal', { asOf: DEVSET_NOW, hardNegatives: refs.slice(0, -1), notes: 'gold is the most recent event of the series' });
  }

  spec.clusters.forEach((cluster, ci) => {
    const refs = cluster.items.map((it) => {
      const r = ref(`cluster${ci}`, it.key);
      const framed = frameTarget(it.type ?? 'fact', it.text, rng, spec);
      pending.push({ ref: r, pos: rng.next(), type: it.type ?? 'fact', who: rng.pick(spec.agents), render: () => framed.content });
      return r;
    });
    cluster.items.forEach((it, i) => {
      if (it.q === '') return;
      ask(it.q, [refs[i]], 'distractor', { hardNegatives: refs.filter((_, j) => j !== i), notes: 'siblings share nearly all words' });
    });
  });

  for (const c of spec.cjk) {
    const r = addTarget('cjk', c, c.type ?? 'fact');
    questions.push({ query: rng.chance(0.5) ? `${spec.name} ${c.q}` : c.q, scopedQuery: c.q, gold: [r], category: 'cjk', project: spec.key });
  }

  for (const [a, b] of spec.multi) {
    const ea = byKey.get(a);
    const eb = byKey.get(b);
    if (!ea?.item.ask || !eb?.item.ask) throw new Error(`${spec.key}: multi pair ${a}+${b} needs two items with ask clauses`);
    const [query, scopedQuery] = multiQuery(ea.item.ask, eb.item.ask, spec.name, rng);
    questions.push({ query, scopedQuery, gold: [ea.ref, eb.ref], category: 'multi-part', project: spec.key });
  }

  for (const text of spec.nearMisses ?? []) {
    if (seenText.has(text)) throw new Error(`${spec.key}: duplicate near-miss ${text}`);
    seenText.add(text);
    pending.push({ pos: rng.next(), type: 'observation', who: rng.pick(spec.agents), render: () => text });
  }
  for (let n = 0; n < spec.noiseCount; n++) {
    let draft: NoiseDraft | undefined;
    for (let attempt = 0; attempt < 30 && draft === undefined; attempt++) {
      const roll = rng.next();
      const d = roll < spec.zhNoiseShare ? zhNoise(rng, spec) : roll < spec.zhNoiseShare + SUMMARY_SHARE ? sessionSummary(rng, spec) : rng.pick(EN_NOISE)(rng, spec);
      if (!seenText.has(d.content)) draft = d;
    }
    if (draft === undefined) continue;
    seenText.add(draft.content);
    const content = draft.content;
    pending.push({ pos: rng.next(), type: draft.type, who: rng.pick(spec.agents), tags: draft.tags, render: () => content });
  }

  const placed = place(rng, spec.key, pending.map((p) => p.pos));
  const memories = pending.map((p, i): DraftMemory => ({
    ref: p.ref,
    content: p.render(placed[i].createdAt),
    type: p.type,
    createdAt: placed[i].createdAt,
    sessionId: placed[i].sessionId,
    project: spec.key,
    who: p.who,
    tags: p.tags,
  }));
  return { memories, questions };
}
