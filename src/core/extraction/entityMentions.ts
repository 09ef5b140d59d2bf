import { DEFAULT_AMBIGUOUS_TECH_TERMS, DEFAULT_NAME_STOPWORDS, DEFAULT_TECH_TERMS } from '../config/extractionConfig';
import type { EntityType } from '../config/extractionConfig';

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
}

export const DEFAULT_MENTION_VOCABULARY: MentionVocabulary = {
  techTerms: DEFAULT_TECH_TERMS,
  ambiguousTechTerms: new Set(DEFAULT_AMBIGUOUS_TECH_TERMS),
  stopwords: new Set(DEFAULT_NAME_STOPWORDS),
};

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

function rules(vocab: MentionVocabulary): Rule[] {
  return [
    { re: /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s<>"'`)\]]+/gi, type: 'url', keep: (m) => m.replace(/[.,;:!?]+$/, '') },
    { re: new RegExp(`(?<![\\w@])(?:\\.{1,2}/|~/|/)?(?:[\\w.-]+/)+[\\w.-]+\\.(?:${FILE_EXT})\\b`, 'g'), type: 'file' },
    { re: /(?<![\w/])@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*/g, type: 'package' },
    { re: /\b(?:npm (?:install|i|add)|pnpm add|yarn add|pip install|cargo add)\s+((?:-{1,2}[\w-]+\s+)*)([a-z0-9][\w.-]*)/g, type: 'package' },
    techRule(vocab),
    { re: new RegExp(`(?<![\\w/.-])[\\w-]+\\.(?:${FILE_EXT})\\b(?!\\.\\w)`, 'g'), type: 'file', keep: (m) => (/^\d+\.\d+$/.test(m) ? undefined : m) },
    { re: /`([^`\n]{2,80})`/g, type: 'symbol' },
    { re: /\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, type: 'symbol' },
    { re: /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g, type: 'symbol' },
    { re: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, type: 'symbol' },
    { re: /\b[A-Za-z_]\w*(?=\(\))/g, type: 'symbol' },
    capitalisedRule(vocab),
  ];
}

/** Finds non-overlapping entity mentions in one sentence; earlier rules win a contested span. */
export function findMentions(text: string, vocab: MentionVocabulary = DEFAULT_MENTION_VOCABULARY): Mention[] {
  const taken: Mention[] = [];
  const overlaps = (s: number, e: number): boolean => taken.some((t) => s < t.end && e > t.start);
  for (const rule of rules(vocab)) {
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
      if (overlaps(s, e)) continue;
      const type = rule.type === 'unknown' && /^[A-Z0-9]{2,6}$/.test(name) ? 'concept' : rule.type;
      taken.push({ name: name.trim(), type, start: s, end: e });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** The claim category of a technology term, if it is one. */
export function techCategory(name: string, vocab: MentionVocabulary = DEFAULT_MENTION_VOCABULARY): string | undefined {
  return vocab.techTerms[name.trim().toLowerCase()];
}
