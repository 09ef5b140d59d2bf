import { createHash } from 'node:crypto';
import type { EdgeKind, EntityType, ExtractionConfig, FactType } from '../config/extractionConfig';
import { REDACTED } from '../config/redactionConfig';
import { canonicalName } from '../graph/keys';
import { nameKey } from './contract';
import type { ExtractedEntity, ExtractedFact, ExtractedRelation, ExtractionPayload } from './contract';
import { DEFAULT_MENTION_VOCABULARY, findMentions, techCategory } from './entityMentions';
import type { Mention, MentionVocabulary } from './entityMentions';
import { aliasResolverFor, canonicalizePayload } from './entityAliases';
import { peopleOf, withPeople } from './people';
import { dropRouteAppositions } from './routeApposition';
import { CONFIGURATION_ASPECT, findValueClaim, valueClaimText } from './valueClaims';

/** What the extractor may know about a memory besides its text. */
export interface ExtractionContext {
  /** Who said or wrote it (a person's name becomes a `person` entity; agent labels are ignored). */
  readonly who?: string;
  /** The memory's type (`decision`, `constraint`, `command`, `bug`, …): picks the aspect of a plain sentence. */
  readonly memoryType?: string;
}

/**
 * The deterministic extractor used when no LLM is configured, and as the fallback when an LLM
 * answer is unusable. It reads sentence by sentence: entities from code-shaped
 * tokens, paths, packages, URLs, technology terms and capitalised names; then decisions,
 * migrations, preferences, dependencies and constraints as facts and relations with claim keys.
 */

/** Aspects and group keys the heuristic writes to; stable so later sentences hit the same slots. */
export const HEURISTIC_ASPECTS = { dependencies: 'dependencies', decisions: 'decisions', preferences: 'preferences', constraints: 'constraints', general: 'general' } as const;

/**
 * The aspect of a sentence no pattern claimed, from the memory's type and the sentence's content
 * (docs/extraction.md, "Aspects"): what it is about — an HTTP route is the entity's API, ownership
 * words its ownership, a decision its decisions, an event or summary its history — instead of one
 * "general" bucket. A type the table does not know keeps "facts".
 */
const TYPE_ASPECTS: Readonly<Record<string, string>> = {
  decision: 'decisions', constraint: 'constraints', preference: 'preferences', command: 'usage', procedural: 'usage',
  bug: 'problems', event: 'history', summary: 'history', observation: 'observations', fact: 'facts',
};
const ROUTE_RE = /\b(?:GET|POST|PUT|PATCH|DELETE)\s+\/[\w/{}:.-]*/;
const OWNER_RE = /\b(?:owned by|maintained by|owner|maintainer|responsible for)\b/i;

export function aspectOfSentence(sentence: string, memoryType: string | undefined): string {
  if (ROUTE_RE.test(sentence)) return 'api';
  if (OWNER_RE.test(sentence)) return 'ownership';
  return TYPE_ASPECTS[memoryType ?? ''] ?? 'facts';
}
export const USES_GROUP = 'uses';

/** Importance and confidence the heuristic assigns (below typical LLM confidence; constraints rank high). */
export const HEURISTIC_FACT_CONFIDENCE = 0.6;
export const HEURISTIC_IMPORTANCE: Readonly<Record<FactType, number>> = {
  constraint: 0.85, decision: 0.7, preference: 0.6, fact: 0.5, rationale: 0.5, procedural: 0.5, semantic: 0.5,
};

const CONSTRAINT_RE = /\b(must|never|always|required|mustn't|do not|don't)\b/i;
const PREFER_RE = /\bprefer(?:s|red)?\s+(.+?)\s+(?:over|to|instead of|rather than)\s+(.+?)[.!?]?$/i;
const MIGRATE_RE = /\b(migrated|migrate|move|moved|switched|switch|ported|changed|replaced)\b/i;
const DECIDE_RE = /\b(decided|chose|choose|picked|selected|went with|settled on|adopted|opted for|will use)\b/i;
const DEPEND_RE = /\b(uses|use|using|depends on|depend on|relies on|rely on|built on|built with|runs on|requires|require)\b/i;

interface Draft {
  entities: Map<string, ExtractedEntity>;
  relations: Map<string, ExtractedRelation>;
  facts: ExtractedFact[];
}

function splitSentences(text: string): string[] {
  // "e.g." and "i.e." end no sentence ("…, e.g. `SHELF_DB=/tmp/test.db …`" stays one).
  return text.split(/(?<=[.!?])(?<!\b(?:e\.g|i\.e|etc|vs)\.)\s+|\n+/).map((s) => s.trim()).filter(Boolean);
}

function declare(d: Draft, name: string, type: EntityType): string {
  const key = nameKey(name);
  if (!d.entities.has(key)) d.entities.set(key, { name, type, description: '' });
  return (d.entities.get(key) as ExtractedEntity).name;
}

function relate(d: Draft, from: string, to: string, type: EdgeKind, instruction: string): void {
  if (nameKey(from) === nameKey(to)) return;
  d.relations.set(`${nameKey(from)}|${nameKey(to)}|${type}`, { from, to, type, instruction });
}

function fact(d: Draft, entity: string, type: FactType, content: string, aspect: string, group: string | null, claim: string | null): void {
  d.facts.push({ entity, type, content, aspect, group_key: group, claim_key: claim, importance: HEURISTIC_IMPORTANCE[type], confidence: HEURISTIC_FACT_CONFIDENCE });
}

const before = (ms: Mention[], at: number): Mention[] => ms.filter((m) => m.end <= at);
const after = (ms: Mention[], at: number): Mention[] => ms.filter((m) => m.start >= at);

/** Claim slot for "X uses Y": Y's category when it is a known technology, else the object itself. */
function usesClaim(object: string, vocab: MentionVocabulary, previous?: string): string {
  return techCategory(object, vocab) ?? (previous ? techCategory(previous, vocab) : undefined) ?? `uses_${canonicalName(previous ?? object)}`;
}

/** A short noun phrase as a concept when a preference names no recognisable entity ("tabs"). */
function phraseEntity(phrase: string, mentions: Mention[]): { name: string; type: EntityType } | undefined {
  const m = mentions.find((x) => phrase.includes(x.name));
  if (m) return { name: m.name, type: m.type };
  const words = phrase.replace(/^(the|a|an|using)\s+/i, '').split(/\s+/).filter(Boolean);
  if (!words.length || words.length > 4) return undefined;
  return { name: words.join(' '), type: 'concept' };
}

const DETERMINERS = /^(?:the|a|an|our|my|your|their|its|this|that|these|those)\s+/i;
const PRONOUNS = new Set(['we', 'i', 'you', 'they', 'he', 'she', 'it', 'everyone', 'nobody', 'someone', 'which', 'that', 'who', 'also', 'now', 'still', 'then', 'so']);
/** Modal verbs, auxiliaries, prepositions and adverbs: a phrase holding one is not a subject ("you can use", "read it again by using"). */
const NOT_IN_SUBJECT = new Set(['can', 'could', 'would', 'should', 'may', 'might', 'must', 'shall', 'will', 'do', 'does', 'did', 'have', 'has', 'had',
  'tried', 'try', 'trying', 'want', 'wanted', 'need', 'needs', 'just', 'again', 'by', 'with', 'for', 'of', 'in', 'on', 'at', 'from', 'into', 'via',
  'not', 'also', 'only', 'even', 'really', 'always', 'never', 'usually', 'already', 'found', 'many', 'examples', 'rather', 'than', 'when', 'if',
  'is', 'are', 'was', 'were', 'be', 'been', 'to', 'and', 'or', 'but', 'we', 'our', 'my', 'the', 'a', 'an', 'this', 'these', 'those', 'it', 'its']);

/**
 * A lowercase subject such as "our backend" when no entity stands before the verb: the last 1–3
 * plain words before it, determiners dropped, pronouns refused. Returned as a concept mention.
 */
function phraseSubject(s: string, from: number, end: number): Mention | undefined {
  const span = s.slice(from, end).trimEnd();
  const m = /((?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)$/.exec(span);
  if (!m) return undefined;
  const words = (m[1] as string).replace(DETERMINERS, '').split(/\s+/).filter(Boolean);
  while (words.length && PRONOUNS.has((words[0] as string).toLowerCase())) words.shift();
  if (!words.length || words.some((w) => PRONOUNS.has(w.toLowerCase()) || NOT_IN_SUBJECT.has(w.toLowerCase()))) return undefined;
  const name = words.join(' ');
  if (name.length < 3) return undefined;
  const start = from + span.length - name.length;
  return { name, type: 'concept', start, end: from + span.length };
}

function sentenceFacts(d: Draft, s: string, vocab: MentionVocabulary, mentions: Mention[]): void {
  for (const m of mentions) declare(d, m.name, m.type);
  const isConstraint = CONSTRAINT_RE.test(s);
  const pref = PREFER_RE.exec(s);
  if (pref) {
    const x = phraseEntity(pref[1] as string, mentions);
    const y = phraseEntity(pref[2] as string, mentions);
    if (x && y && nameKey(x.name) !== nameKey(y.name)) {
      const xn = declare(d, x.name, x.type);
      const yn = declare(d, y.name, y.type);
      relate(d, xn, yn, 'preferred_over', s);
      const pair = [canonicalName(xn), canonicalName(yn)].sort();
      const owner = nameKey(pair[0] as string) === nameKey(xn) ? xn : yn;
      fact(d, owner, 'preference', s, HEURISTIC_ASPECTS.preferences, 'preferred_over', `${pair[0]}_vs_${pair[1]}`);
    }
    return;
  }
  const mig = MIGRATE_RE.exec(s);
  const toIdx = mig ? s.toLowerCase().indexOf(' to ', mig.index) : -1;
  if (mig && toIdx > 0) {
    const fromIdx = s.toLowerCase().indexOf(' from ', mig.index);
    const between = before(after(mentions, mig.index), fromIdx > 0 && fromIdx < toIdx ? fromIdx : toIdx);
    const subjectEnd = fromIdx > 0 && fromIdx < toIdx ? fromIdx : toIdx;
    const subject = between[0] ?? phraseSubject(s, mig.index + mig[0].length, subjectEnd);
    const old = fromIdx > 0 && fromIdx < toIdx ? after(before(mentions, toIdx), fromIdx)[0] : undefined;
    const object = after(mentions, toIdx)[0];
    if (object) {
      if (subject) declare(d, subject.name, subject.type);
      if (old) relate(d, object.name, old.name, 'replaces', s);
      if (subject) {
        relate(d, subject.name, object.name, 'uses', s);
        fact(d, subject.name, 'decision', s, HEURISTIC_ASPECTS.dependencies, USES_GROUP, usesClaim(object.name, vocab, old?.name));
        // The chosen thing carries the decision too ("SQLite: chosen for the reading list").
        fact(d, declare(d, object.name, object.type), 'decision', s, HEURISTIC_ASPECTS.decisions, 'decisions', `chosen_for_${canonicalName(subject.name)}`);
      } else {
        fact(d, object.name, 'decision', s, HEURISTIC_ASPECTS.decisions, 'decisions', techCategory(object.name, vocab) ?? null);
      }
      return;
    }
  }
  const dec = DECIDE_RE.exec(s);
  if (dec) {
    const subject = before(mentions, dec.index).at(-1);
    const object = after(mentions, dec.index + dec[0].length)[0];
    if (subject && object) relate(d, subject.name, object.name, 'uses', s);
    const owner = object ?? subject;
    if (owner) fact(d, owner.name, isConstraint ? 'constraint' : 'decision', s, isConstraint ? HEURISTIC_ASPECTS.constraints : HEURISTIC_ASPECTS.decisions, null, null);
    return;
  }
  const dep = DEPEND_RE.exec(s);
  if (dep) {
    const objects = after(mentions, dep.index + dep[0].length);
    const subject = before(mentions, dep.index).at(-1) ?? (objects.length ? phraseSubject(s, 0, dep.index) : undefined);
    if (subject) declare(d, subject.name, subject.type);
    const verb = dep[1]?.toLowerCase() ?? '';
    const kind: EdgeKind = /depend|rel/.test(verb) ? 'depends_on' : /requir/.test(verb) ? 'requires' : 'uses';
    if (subject) {
      for (const o of objects) {
        relate(d, subject.name, o.name, kind, s);
        if (!isConstraint) fact(d, subject.name, 'fact', s, HEURISTIC_ASPECTS.dependencies, USES_GROUP, usesClaim(o.name, vocab));
      }
    }
  }
  if (isConstraint) {
    // A rule naming no entity still belongs to its subject phrase ("the checkout service must never …").
    const at = CONSTRAINT_RE.exec(s)?.index ?? 0;
    const owner = mentions[0] ?? (at > 0 ? phraseSubject(s, 0, at) : undefined);
    if (owner) fact(d, declare(d, owner.name, owner.type), 'constraint', s, HEURISTIC_ASPECTS.constraints, null, null);
  }
}

/**
 * A sentence no pattern claimed: a plain fact of its first named entity (a typed one before a bare
 * capitalised name). Its claim slot is the sentence itself, so unrelated observations sharing an
 * aspect never supersede each other through the syntactic contradiction check (measured on the
 * development set: a shared slot marked 283 mostly unrelated facts superseded); the same sentence
 * seen again confirms the attribute instead.
 */
function generalFact(d: Draft, s: string, mentions: Mention[], memoryType: string | undefined): void {
  const subject = mentions.find((m) => m.type !== 'unknown') ?? mentions[0];
  if (!subject || s.trim().endsWith('?')) return;
  const slot = `observation_${createHash('sha256').update(canonicalName(s)).digest('hex').slice(0, 16)}`;
  fact(d, declare(d, subject.name, subject.type), 'fact', s, aspectOfSentence(s, memoryType), null, slot);
}

/** A stated setting, port or version as a keyed claim (valueClaims.ts); true when the sentence held one. */
function valueFact(d: Draft, s: string, mentions: Mention[]): boolean {
  const c = findValueClaim(s, mentions);
  if (!c) return false;
  for (const m of mentions) declare(d, m.name, m.type);
  fact(d, declare(d, c.owner.name, c.owner.type), 'fact', valueClaimText(c), CONFIGURATION_ASPECT, CONFIGURATION_ASPECT, c.key);
  return true;
}

/** Heuristic extraction of a whole text. Deterministic; never throws; respects the payload caps. */
export function heuristicExtract(text: string, cfg: ExtractionConfig, vocab: MentionVocabulary = DEFAULT_MENTION_VOCABULARY, context: ExtractionContext = {}): ExtractionPayload {
  const d: Draft = { entities: new Map(), relations: new Map(), facts: [] };
  // The redaction placeholder is not a name.
  const input = text.slice(0, cfg.maxInputChars).split(REDACTED).join('');
  const people = peopleOf(input, context.who, vocab);
  for (const p of people) declare(d, p, 'person');
  for (const s of splitSentences(input)) {
    const sentence = s.slice(0, cfg.maxContentChars);
    const factsBefore = d.facts.length;
    const mentions = withPeople(sentence, dropRouteAppositions(sentence, findMentions(sentence, vocab)), people);
    if (valueFact(d, sentence, mentions)) continue;
    sentenceFacts(d, sentence, vocab, mentions);
    if (cfg.generalFacts && d.facts.length === factsBefore) generalFact(d, sentence, mentions, context.memoryType);
  }
  // Keep the entities that facts and relations need first, then the rest up to the cap.
  const needed = new Set<string>([...d.relations.values()].flatMap((r) => [nameKey(r.from), nameKey(r.to)]).concat(d.facts.map((f) => nameKey(f.entity))));
  const ordered = [...d.entities.entries()].sort(([a], [b]) => Number(needed.has(b)) - Number(needed.has(a)));
  const kept = new Map(ordered.slice(0, cfg.maxEntities));
  const relations = [...d.relations.values()].filter((r) => kept.has(nameKey(r.from)) && kept.has(nameKey(r.to))).slice(0, cfg.maxRelations);
  const seen = new Set<string>();
  const facts = d.facts.filter((f) => {
    const k = `${nameKey(f.entity)}|${f.content}`;
    if (!kept.has(nameKey(f.entity)) || seen.has(k)) return false;
    seen.add(k);
    return true;
  }).slice(0, cfg.maxFacts);
  return canonicalizePayload({
    ...(kept.size ? { entities: [...kept.values()] } : {}),
    ...(relations.length ? { relations } : {}),
    ...(facts.length ? { facts } : {}),
  }, aliasResolverFor(cfg.aliases));
}
