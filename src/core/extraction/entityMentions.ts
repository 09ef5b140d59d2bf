import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_AMBIGUOUS_TECH_TERMS, DEFAULT_GENERIC_NOUNS, DEFAULT_NAME_STOPWORDS, DEFAULT_NEVER_ENTITIES, DEFAULT_TECH_TERMS, DEFAULT_TERM_TYPES } from '../config/extractionConfig';
import type { EntityType, WorkspaceNames } from '../config/extractionConfig';
import { defaultGazetteer } from './entityGazetteer';
import { createEntityTagger, parseTaggerWeights } from './entityTagger';
import type { EntityTagger, SerializedTaggerWeights, TaggerWeights } from './entityTagger';

/** One entity mention found in a sentence, with its character span. */
export interface Mention {
  readonly name: string;
  readonly type: EntityType;
  readonly start: number;
  readonly end: number;
}

export interface MentionVocabulary {
  /** Lowercase term → claim category. */
  readonly techTerms: Readonly<Record<string, string>>;
  readonly ambiguousTechTerms: ReadonlySet<string>;
  readonly stopwords: ReadonlySet<string>;
  /** Lowercase single words that are never entities (weekdays, months, greetings, HTTP verbs, …). */
  readonly neverEntities: ReadonlySet<string>;
  /** Lowercase everyday nouns dropped when the tagger marks them alone in lowercase ("server"). */
  readonly genericNouns: ReadonlySet<string>;
  /** Lowercase name → the type it always has (data formats, generic architecture words). */
  readonly termTypes?: Readonly<Record<string, EntityType>>;
  /**
   * The learned tagger (docs/extraction.md). With it, names come from the structural rules (URLs,
   * paths, packages, technology terms, backticks) plus the tagger's spans; without it, from the
   * older capitalisation and code-shape rules (kept for the bench's before/after comparison).
   */
  readonly tagger?: EntityTagger;
  /** The workspace's dependency names, lowercase → as spelled (workspaceNames.ts); exact `package` mentions. */
  readonly workspaceDependencies?: ReadonlyMap<string, string>;
}

/**
 * The shipped tagger weights (1.8 MB of JSON), read on first use instead of bundled: inside the CLI
 * bundle they were two thirds of the code every command compiles (~15 ms of each start, `stats`
 * included; docs/store.md, "Where the 100k open goes"). The file sits beside this module in the
 * sources and beside the bundles in dist/ (esbuild.mjs copies it there).
 */
export const TAGGER_WEIGHTS_FILE = 'entityTaggerWeights.json';

function readShippedWeights(): SerializedTaggerWeights {
  return JSON.parse(readFileSync(join(__dirname, TAGGER_WEIGHTS_FILE), 'utf8')) as SerializedTaggerWeights;
}

let shippedWeights: TaggerWeights | undefined;
let defaultTagger: EntityTagger | undefined;
/** The shipped tagger with the built-in gazetteer, built once on first use. */
export function shippedEntityTagger(extraNames: Iterable<string> = []): EntityTagger {
  const extra = [...extraNames];
  if (!extra.length && defaultTagger) return defaultTagger;
  const gaz = defaultGazetteer(extra);
  shippedWeights ??= parseTaggerWeights(readShippedWeights());
  const tagger = createEntityTagger(shippedWeights, (lw) => gaz.has(lw));
  if (!extra.length) defaultTagger = tagger;
  return tagger;
}

/** The rules-only vocabulary (the extractor before the tagger). */
export const RULES_MENTION_VOCABULARY: MentionVocabulary = {
  techTerms: DEFAULT_TECH_TERMS,
  ambiguousTechTerms: new Set(DEFAULT_AMBIGUOUS_TECH_TERMS),
  stopwords: new Set(DEFAULT_NAME_STOPWORDS),
  neverEntities: new Set(DEFAULT_NEVER_ENTITIES),
  genericNouns: new Set(DEFAULT_GENERIC_NOUNS),
  termTypes: DEFAULT_TERM_TYPES,
};

/** The default: rules plus the shipped tagger, built lazily (the weights load on first use). */
export const DEFAULT_MENTION_VOCABULARY: MentionVocabulary = {
  ...RULES_MENTION_VOCABULARY,
  get tagger(): EntityTagger { return shippedEntityTagger(); },
};

const workspaceVocabularies = new WeakMap<WorkspaceNames, MentionVocabulary>();
/**
 * The vocabulary for a workspace gazetteer (docs/extraction.md, "Workspace gazetteer"): the default
 * one when the workspace has no names, else the default plus exact dependency mentions and a tagger
 * whose gazetteer feature knows every workspace name. Built once per names object.
 */
export function mentionVocabularyFor(workspace: WorkspaceNames | undefined): MentionVocabulary {
  if (!workspace || (workspace.dependencies.length === 0 && workspace.names.length === 0)) return DEFAULT_MENTION_VOCABULARY;
  let v = workspaceVocabularies.get(workspace);
  if (!v) {
    const deps = new Map(workspace.dependencies.map((d) => [d.toLowerCase(), d] as const));
    let tagger: EntityTagger | undefined;
    const extra = [...workspace.dependencies, ...workspace.names];
    v = { ...RULES_MENTION_VOCABULARY, workspaceDependencies: deps, get tagger(): EntityTagger { tagger ??= shippedEntityTagger(extra); return tagger; } };
    workspaceVocabularies.set(workspace, v);
  }
  return v;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const FILE_EXT = 'ts|tsx|js|jsx|mjs|cjs|json|md|py|rs|go|java|kt|rb|php|cs|cpp|cc|c|h|hpp|yml|yaml|toml|lock|sql|sh|css|scss|html|vue|svelte|txt|env|ini|xml';

interface Rule {
  readonly re: RegExp;
  readonly type: EntityType;
  /** Optional post-filter; returns the name to keep or undefined to skip. */
  readonly keep?: (match: string, start: number, text: string) => string | undefined;
}

function techRule(vocab: MentionVocabulary): Rule {
  const terms = Object.keys(vocab.techTerms).sort((a, b) => b.length - a.length).map(escapeRe);
  return {
    re: new RegExp(`(?<![\\w@/.-])(?:${terms.join('|')})(?![\\w+#-]|\\.\\w)`, 'gi'),
    type: 'tool',
    keep: (m) => (vocab.ambiguousTechTerms.has(m.toLowerCase()) && m[0] === m[0]?.toLowerCase() ? undefined : m),
  };
}

function capitalisedRule(vocab: MentionVocabulary): Rule {
  return {
    re: /\b[A-Z][A-Za-z0-9]*(?:[ \t]+[A-Z][A-Za-z0-9]*)*\b/g,
    type: 'unknown',
    keep: (m, start, text) => {
      const words = m.split(/[ \t]+/);
      while (words.length && vocab.stopwords.has(words[0] as string)) words.shift();
      while (words.length && vocab.stopwords.has(words[words.length - 1] as string)) words.pop();
      if (!words.length) return undefined;
      const name = words.join(' ');
      const allCaps = /^[A-Z0-9]{2,6}$/.test(name);
      if (!allCaps && name.length < 3) return undefined;
      const sentenceStart = text.slice(0, start).trim() === '' && words.length === 1 && m.startsWith(name);
      if (sentenceStart && !allCaps && !/[A-Z]/.test(name.slice(1))) return undefined;
      return name;
    },
  };
}

/**
 * Dependency names that are also everyday English words: in lowercase prose ("express the idea",
 * "open the file") they are not the package, so they count only capitalised or in code shape.
 */
const ENGLISH_DEPENDENCY_NAMES = new Set(['express', 'request', 'commander', 'chalk', 'debug', 'glob', 'async', 'color', 'colors', 'moment', 'open', 'path',
  'events', 'buffer', 'util', 'stream', 'process', 'assert', 'sharp', 'got', 'next', 'should', 'tape', 'tap', 'del', 'meow', 'helmet', 'morgan', 'passport',
  'prettier', 'jest', 'mocha', 'react', 'marked', 'ink', 'bull', 'queue', 'retry', 'ms', 'test', 'config', 'yaml', 'json', 'core', 'types', 'node', 'cross',
  'serve', 'send', 'compression', 'cookie', 'session', 'validator', 'signal', 'lodash', 'click', 'rich', 'requests', 'black', 'flask', 'attrs', 'toml',
  'anyhow', 'clap', 'log', 'rand', 'regex', 'time', 'url', 'bytes', 'image', 'tokio', 'serde', 'futures', 'mock', 'pytest', 'build', 'wheel', 'tools', 'setuptools']);

function workspaceDependencyRule(deps: ReadonlyMap<string, string>, vocab: MentionVocabulary): Rule | undefined {
  const names = [...deps.keys()].filter((n) => n.length >= 3 && !vocab.stopwords.has(n) && !vocab.genericNouns.has(n) && !vocab.neverEntities.has(n));
  if (!names.length) return undefined;
  const alternation = names.sort((a, b) => b.length - a.length).map(escapeRe).join('|');
  return {
    re: new RegExp(`(?<![\\w@/.-])(?:${alternation})(?![\\w-]|\\.\\w)`, 'gi'),
    type: 'package',
    keep: (m) => {
      const lw = m.toLowerCase();
      if (ENGLISH_DEPENDENCY_NAMES.has(lw) && m === lw) return undefined;
      return deps.get(lw) ?? m;
    },
  };
}

/** Rules whose matches are names by their shape alone; they run before the tagger and win contested spans. */
function structuralRules(vocab: MentionVocabulary): Rule[] {
  return [
    { re: /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s<>"'`)\]]+/gi, type: 'url', keep: (m) => m.replace(/[.,;:!?]+$/, '') },
    { re: new RegExp(`(?<![\\w@])(?:\\.{1,2}/|~/|/)?(?:[\\w.-]+/)+[\\w.-]+\\.(?:${FILE_EXT})\\b`, 'g'), type: 'file' },
    { re: /(?<![\w/])@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*/g, type: 'package' },
    { re: /\b(?:npm (?:install|i|add)|pnpm add|yarn add|pip install|cargo add)\s+((?:-{1,2}[\w-]+\s+)*)([a-z0-9][\w.-]*)/g, type: 'package' },
    techRule(vocab),
    ...(vocab.workspaceDependencies ? [workspaceDependencyRule(vocab.workspaceDependencies, vocab)].filter((r): r is Rule => r !== undefined) : []),
    { re: new RegExp(`(?<![\\w/.-])[\\w-]+\\.(?:${FILE_EXT})\\b(?!\\.\\w)`, 'g'), type: 'file', keep: (m) => (/^\d+\.\d+$/.test(m) ? undefined : m) },
    { re: /`([^`\n]{2,80})`/g, type: 'symbol' },
    // Upper-case snake case is a constant or an environment variable by its shape (`SHORT_BOOK_PAGES`,
    // `SHELF_DB`); the tagger missed it in prose ("…: SHORT_BOOK_PAGES is 220 now").
    { re: /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, type: 'symbol' },
  ];
}

function rules(vocab: MentionVocabulary): Rule[] {
  return [
    ...structuralRules(vocab),
    { re: /\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, type: 'symbol' },
    { re: /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g, type: 'symbol' },
    { re: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, type: 'symbol' },
    { re: /\b[A-Za-z_]\w*(?=\(\))/g, type: 'symbol' },
    capitalisedRule(vocab),
  ];
}

/** True when a name opens or closes a bracket it does not match (`list[Book`): a cut through code, not a name. */
function unbalanced(name: string): boolean {
  let depth = 0;
  for (const ch of name) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') { depth--; if (depth < 0) return true; }
  }
  return depth !== 0;
}

/** A single word that is never an entity ("Friday", "Maybe", "GET", "UTC"); its plural too. */
function neverAnEntity(name: string, vocab: MentionVocabulary): boolean {
  const lw = name.toLowerCase();
  // Numbers, times and versions on their own (`8080`, `3.2.0`, `10:30`), and assignments (`PORT=8080`), are values.
  if (/^[\d.,:/-]+$/.test(lw) || lw.includes('=')) return true;
  return vocab.neverEntities.has(lw) || (lw.endsWith('s') && vocab.neverEntities.has(lw.slice(0, -1)));
}

/** Rule lists are built once per vocabulary (the technology-term pattern is a large regular expression). */
const ruleCache = new WeakMap<MentionVocabulary, { structural: Rule[]; legacy: Rule[] }>();
function rulesFor(vocab: MentionVocabulary): { structural: Rule[]; legacy: Rule[] } {
  let r = ruleCache.get(vocab);
  if (!r) { r = { structural: structuralRules(vocab), legacy: rules(vocab) }; ruleCache.set(vocab, r); }
  return r;
}

/**
 * Finds non-overlapping entity mentions in one sentence; earlier rules win a contested span, and
 * with a tagger its spans fill what the structural rules left.
 */
export function findMentions(text: string, vocab: MentionVocabulary = DEFAULT_MENTION_VOCABULARY): Mention[] {
  const taken: Mention[] = [];
  const overlaps = (s: number, e: number): boolean => taken.some((t) => s < t.end && e > t.start);
  const tagger = vocab.tagger;
  const cached = rulesFor(vocab);
  for (const rule of tagger ? cached.structural : cached.legacy) {
    for (const m of text.matchAll(rule.re)) {
      let raw = m[0];
      let start = m.index ?? 0;
      // Rules with a capture group (package installs, backticks) take the last group as the name.
      const group = m.length > 1 ? m[m.length - 1] : undefined;
      if (group) { start += raw.lastIndexOf(group); raw = group; }
      const name = rule.keep ? rule.keep(raw, start, text) : raw;
      if (!name) continue;
      const offset = raw.indexOf(name);
      const s = start + Math.max(0, offset);
      const e = s + name.length;
      if (overlaps(s, e) || neverAnEntity(name.trim(), vocab)) continue;
      const type = rule.type === 'unknown' && /^[A-Z0-9]{2,6}$/.test(name) ? 'concept' : rule.type;
      taken.push({ name: name.trim(), type, start: s, end: e });
    }
  }
  if (tagger) {
    for (const span of tagger.tag(text)) {
      // Trailing call parentheses are not part of a function's name (`parseArgs()` is `parseArgs`).
      const name = span.name.replace(/^[^\w@#.$/~]+|[^\w+#)/]+$/g, '').replace(/\(\)$/, '').replace(/['’]s$/, '');
      const s = span.start + span.name.indexOf(name);
      if (name.length < 2 || unbalanced(name) || overlaps(s, s + name.length) || neverAnEntity(name, vocab) || vocab.stopwords.has(name) || vocab.genericNouns.has(name)) continue;
      taken.push({ name, type: span.type, start: s, end: s + name.length });
    }
  }
  const types = vocab.termTypes;
  const typed = types ? taken.map((m) => {
    const t = Object.prototype.hasOwnProperty.call(types, m.name.toLowerCase()) ? types[m.name.toLowerCase()] : undefined;
    return t && t !== m.type ? { ...m, type: t } : m;
  }) : taken;
  return typed.sort((a, b) => a.start - b.start);
}

/** The claim category of a technology term, if it is one. */
export function techCategory(name: string, vocab: MentionVocabulary = DEFAULT_MENTION_VOCABULARY): string | undefined {
  return vocab.techTerms[name.trim().toLowerCase()];
}
