/**
 * Memory-level currentness without a language model: does a newer memory replace an older one?
 * Two general, pure heuristics (the currentness stage of recall, ARCHITECTURE.md, reads their
 * result):
 *
 * - **decision change**: both memories state how things are (decision, fact, preference), they
 *   share a subject (at least `MIN_SHARED` significant words), and the newer one uses change
 *   language that names what it replaces ("move X from A to B", "switch from A", "replace A with
 *   B", "instead of A", "no longer A") where A shares words with the older memory;
 * - **value change**: both name the same setting (a code identifier such as `MAX_RETRIES`, a
 *   dotted config key, or a setting noun such as "port", "timeout", "version") with a value, the
 *   newer one gives a value the older one does not, and they share `MIN_SHARED` subject words
 *   besides the key and the values.
 *
 * Time order decides which is stale: the older `createdAt` loses. Summaries, events and bugs never
 * take part (they report what happened, not what holds). These findings feed the graph's
 * supersession (graph/memorySupersessionWrites.ts) and the conflict proposals of maintenance.
 */

/** A memory as the heuristics see it. */
export interface MemoryText {
  readonly id: string;
  readonly type: string;
  readonly content: string;
  readonly createdAt: string;
}

export type MemorySupersessionKind = 'decision_change' | 'value_change';

export interface MemorySupersessionFinding {
  readonly olderId: string;
  readonly newerId: string;
  readonly kind: MemorySupersessionKind;
  /** Human-readable reason, e.g. "port changed: 8080 → 4310". */
  readonly detail: string;
}

/** Words two memories must share to be about the same subject. */
export const MIN_SHARED = 2;

/** Types that state how things are; only these supersede or are superseded. */
const STATE_TYPES = new Set(['decision', 'fact', 'preference']);
/** Types that may carry a setting's value. */
const VALUE_TYPES = new Set(['decision', 'fact', 'preference', 'constraint', 'command', 'observation']);

const STOPWORDS = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'these', 'those', 'from', 'into', 'onto', 'over', 'under', 'our', 'your', 'their',
  'are', 'was', 'were', 'been', 'being', 'has', 'have', 'had', 'does', 'did', 'not', 'but', 'all', 'any', 'some', 'its', 'it',
  'can', 'could', 'will', 'would', 'should', 'may', 'might', 'must', 'shall', 'than', 'then', 'there', 'here', 'when', 'where',
  'which', 'what', 'who', 'why', 'how', 'now', 'new', 'old', 'also', 'just', 'only', 'very', 'more', 'most', 'less', 'least',
  'use', 'used', 'uses', 'using', 'we', 'you', 'they', 'them', 'via', 'per', 'each', 'every', 'because', 'since', 'while',
  'yet', 'still', 'instead', 'decision', 'decided', 'decide', 'move', 'moved', 'moving', 'switch', 'switched', 'replace',
  'replaced', 'replacing', 'change', 'changed', 'migrate', 'migrated', 'longer', 'about', 'after', 'before', 'so', 'too',
  'like', 'keep', 'keeps', 'kept', 'make', 'makes', 'let', 'lets', 'get', 'gets', 'set', 'sets', 'both', 'one', 'two',
]);

/** A light plural folding ("retries" → "retry", "jobs" → "job"; "status", "class" kept). */
function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Significant words: lowercase, at least 3 characters, no stopwords, plurals folded. */
export function subjectWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_]*/gu) ?? []) {
    if (raw.length < 3 || STOPWORDS.has(raw) || /^\d+$/.test(raw)) continue;
    out.add(singular(raw));
  }
  return out;
}

/**
 * What the newer memory says it replaces: the phrase after "from" (with a move/switch/migrate
 * verb before it and "to"/"with" after), after "instead of", "replace(d) … with", "no longer".
 */
const CHANGE_PATTERNS: readonly RegExp[] = [
  // The verbs spelled out: a stem with any ending read "got the idea from that trip to England",
  // "good", "portrait" and "important" as change verbs (docs/recall-design.md, "Eleventh round").
  /\b(?:mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|migrat(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|convert(?:s|ed|ing)?|port(?:s|ed|ing)?|go(?:es|ing|ne)?|went|transition(?:s|ed|ing)?)\b[^.;:!?]{0,80}?\bfrom\s+([^.,;:!?()]{1,80}?)\s+(?:to|with|into|onto)\b/giu,
  /\breplac\w*\s+([^.,;:!?()]{1,80}?)\s+(?:with|by)\b/giu,
  /\binstead\s+of\s+((?:[^\s.,;:!?()]+\s+){0,3}[^\s.,;:!?()]+)/giu,
  /\bno\s+longer\s+((?:[^\s.,;:!?()]+\s+){0,3}[^\s.,;:!?()]+)/giu,
  /\bdropp?\w*\s+([^.,;:!?()]{1,60}?)\s+(?:in favou?r of|for)\b/giu,
];

export function replacedPhrases(text: string): string[] {
  const out: string[] = [];
  for (const re of CHANGE_PATTERNS) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) if (m[1]) out.push(m[1].trim());
  }
  return out;
}

/** Words that say a value was changed, in the newer memory of a value change. */
const VALUE_CHANGE = /\b(now|changed|change|raised|lowered|increased|decreased|reduced|bumped|moved|switched|updated|instead|no longer|clash\w*|conflict\w*)\b/i;

/** Setting nouns that are read as "<noun> <value>" ("port 8080", "timeout 30"). */
const SETTING_NOUNS = 'port|timeout|version|limit|threshold|interval|ttl|retries|retry|workers|threads|concurrency|size|level|quota|budget|max|min';

/** A dotted identifier that is a file name, not a config key ("pyproject.toml"). */
const FILE_NAME = /\.(?:toml|json|jsonl|ya?ml|ini|cfg|conf|env|lock|txt|md|py|js|mjs|cjs|ts|tsx|rs|go|java|rb|sh|sql|html|css)$/;

const SENTENCE_SPLIT = /(?<=[.!?])\s+|\n+/;
const VALUE = String.raw`(\d+(?:\.\d+)*(?:\s?(?:ms|s|m|h|kb|mb|gb|%))?|"[^"\n]{1,40}"|'[^'\n]{1,40}'|\x60[^\x60\n]{1,40}\x60)`;
const IDENT = String.raw`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z][a-z0-9]*(?:\.[a-z][a-zA-Z0-9]*)+|[a-z]+[A-Z][A-Za-z0-9]*)`;

/** IDENT … is/=/set to/to VALUE, within one sentence (clauses after ';' included). */
const IDENT_VALUE = new RegExp(String.raw`(?<![\w.])${IDENT}(?![\w])[^!?]{0,80}?(?:\bis(?:\s+set)?\s+(?:to\s+)?|\s*=\s*|\s*:\s+|\bset\s+to\s+|\bto\s+|\bof\s+)${VALUE}(?!\w|\.\w)`, 'g');
/** A setting noun and its value ("port 8080", "timeout is 30 s"). */
const NOUN_VALUE = new RegExp(String.raw`\b(${SETTING_NOUNS})\b(?:\s+(?:is|was|=|:|of|to|at|on|set\s+to|now))*\s+v?${VALUE}(?!\w|\.\w)`, 'gi');

/**
 * Setting → values named in a text. Keys are lowercase; values are normalised (lowercase, quotes
 * removed, spaces collapsed). A key without a value in the same sentence is not listed.
 */
export function settingValues(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (key: string, value: string): void => {
    const v = value.replace(/^["'\x60]|["'\x60]$/g, '').replace(/\s+/g, '').toLowerCase();
    if (!v) return;
    const k = key.toLowerCase();
    if (FILE_NAME.test(k)) return;
    const set = out.get(k) ?? new Set<string>();
    set.add(v);
    out.set(k, set);
  };
  for (const sentence of text.split(SENTENCE_SPLIT)) {
    for (const m of sentence.matchAll(IDENT_VALUE)) {
      if (m[1] && m[2]) add(m[1], m[2]);
    }
    for (const m of sentence.matchAll(NOUN_VALUE)) {
      if (m[1] && m[2]) add(m[1], m[2]);
    }
    // host:port (127.0.0.1:4310, localhost:3000) names a port.
    for (const m of sentence.matchAll(/\b(?:localhost|(?:\d{1,3}\.){3}\d{1,3}|\[[0-9a-f:]+\]|[a-z][\w-]*(?:\.[a-z][\w-]*)+):(\d{2,5})\b/gi)) {
      if (m[1]) add('port', m[1]);
    }
  }
  return out;
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const t of a) if (b.has(t)) out.push(t);
  return out;
}

/** Pre-computed analysis of one memory, so a scan over many pairs computes it once. */
export interface AnalysedMemory {
  readonly memory: MemoryText;
  readonly words: ReadonlySet<string>;
  /** What it says it replaces: each phrase as written and its significant words. */
  readonly replaced: readonly { readonly text: string; readonly words: ReadonlySet<string> }[];
  readonly settings: ReadonlyMap<string, ReadonlySet<string>>;
  readonly changeLanguage: boolean;
}

export function analyseMemory(memory: MemoryText): AnalysedMemory {
  return {
    memory,
    words: subjectWords(memory.content),
    replaced: replacedPhrases(memory.content).map((text) => ({ text, words: subjectWords(text) })),
    settings: settingValues(memory.content),
    changeLanguage: VALUE_CHANGE.test(memory.content),
  };
}

/** Words that deny what follows them ("not", "never", "don't", "without"). */
const NEGATION = /^(?:not|no|never|without|neither|nor|cannot|\p{L}+n['’]t)$/u;
/** How many words before a word a negation still denies it ("not really giving up"). */
const NEGATION_REACH = 3;

const tokensOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_'’]*/gu) ?? [];
const negatedAt = (tokens: readonly string[], i: number): boolean => tokens.slice(Math.max(0, i - NEGATION_REACH), i).some((b) => NEGATION.test(b));

/**
 * Whether `text` states some of `words` rather than only denying them: a word counts when no
 * negation stands within NEGATION_REACH words before it. "I'm not giving up" states no "giving",
 * so a later "instead of giving up" agrees with it and replaces nothing.
 */
export function statesAny(text: string, words: readonly string[]): boolean {
  const tokens = tokensOf(text);
  return tokens.some((t, i) => words.includes(singular(t)) && !negatedAt(tokens, i));
}

/**
 * Whether `text` states the whole of `phrase` (its words in a row, not under a negation). An
 * action named by a verb's -ing form is the whole phrase: "giving up" is not "giving it my all".
 */
export function statesPhrase(text: string, phrase: string): boolean {
  const tokens = tokensOf(text), want = tokensOf(phrase);
  if (want.length === 0) return false;
  for (let i = 0; i + want.length <= tokens.length; i++) {
    if (want.every((w, j) => tokens[i + j] === w) && !negatedAt(tokens, i)) return true;
  }
  return false;
}

/** A replaced phrase whose significant words are all -ing forms names an action ("instead of giving up"). */
const namesAction = (words: ReadonlySet<string>): boolean => words.size > 0 && [...words].every((w) => w.length > 5 && w.endsWith('ing'));

function decisionChange(older: AnalysedMemory, newer: AnalysedMemory): string | undefined {
  if (!STATE_TYPES.has(older.memory.type) || !STATE_TYPES.has(newer.memory.type)) return undefined;
  const shared = overlap(older.words, newer.words);
  if (shared.length < MIN_SHARED) return undefined;
  for (const phrase of newer.replaced) {
    // What the newer memory replaces must be what the older one says: at least two thirds of the
    // replaced phrase's words ("from the JSON file" → json, file) appear in the older memory, not
    // only under a negation there (statesAny), and an action as the whole phrase (statesPhrase).
    const named = overlap(phrase.words, older.words);
    if (named.length === 0 || named.length * 3 < phrase.words.size * 2) continue;
    const stated = namesAction(phrase.words) ? statesPhrase(older.memory.content, phrase.text) : statesAny(older.memory.content, named);
    if (stated) return `newer ${newer.memory.type} replaces "${named.join(' ')}" (shared subject: ${shared.slice(0, 4).join(', ')})`;
  }
  return undefined;
}

function valueChange(older: AnalysedMemory, newer: AnalysedMemory): string | undefined {
  if (!VALUE_TYPES.has(older.memory.type) || !VALUE_TYPES.has(newer.memory.type)) return undefined;
  for (const [key, oldValues] of older.settings) {
    const newValues = newer.settings.get(key);
    if (!newValues) continue;
    const added = [...newValues].filter((v) => !oldValues.has(v));
    if (added.length === 0) continue;
    const keyWords = subjectWords(key.replace(/[_.]/g, ' '));
    keyWords.add(key);
    const shared = overlap(older.words, newer.words).filter((w) => !keyWords.has(w) && !oldValues.has(w) && !newValues.has(w));
    if (shared.length < MIN_SHARED) continue;
    // Without change language, the newer memory must drop every old value (else it may list both).
    const dropsOld = [...oldValues].every((v) => !newValues.has(v));
    if (!newer.changeLanguage && !dropsOld) continue;
    return `${key} changed: ${[...oldValues].join(', ')} → ${added.join(', ')}`;
  }
  return undefined;
}

/**
 * Whether one of two memories supersedes the other. Same-time memories are never ordered; the
 * finding names the older and the newer id.
 */
/**
 * Whether `m` can take part in a supersession only as the OLDER memory (every finding needs the
 * newer one to name what it replaces, or both to carry a setting): true when it names nothing it
 * replaces and carries no setting. `never` when no finding can involve it at all (its type).
 * Mirrors decisionChange / valueChange below; memorySupersessionScan.ts uses it to skip the
 * candidate query while ingesting in time order (issue #26).
 */
export function supersessionRole(m: AnalysedMemory): 'any' | 'olderOnly' | 'never' {
  const state = STATE_TYPES.has(m.memory.type);
  const value = VALUE_TYPES.has(m.memory.type) && m.settings.size > 0;
  if ((state && m.replaced.length > 0) || value) return 'any';
  return state ? 'olderOnly' : 'never';
}

export function detectMemorySupersession(a: AnalysedMemory, b: AnalysedMemory): MemorySupersessionFinding | undefined {
  if (a.memory.id === b.memory.id || a.memory.createdAt === b.memory.createdAt) return undefined;
  const [older, newer] = a.memory.createdAt < b.memory.createdAt ? [a, b] : [b, a];
  const decision = decisionChange(older, newer);
  if (decision) return { olderId: older.memory.id, newerId: newer.memory.id, kind: 'decision_change', detail: decision };
  const value = valueChange(older, newer);
  if (value) return { olderId: older.memory.id, newerId: newer.memory.id, kind: 'value_change', detail: value };
  return undefined;
}

/**
 * Every supersession among `memories` (pairs sharing at least one significant word or setting
 * key are compared; an inverted index keeps this far below all pairs), ordered by the newer
 * memory's time, so a writer that keeps the first replacement of each older memory reads a chain
 * A → B → C as two steps.
 */
export function findMemorySupersessions(memories: readonly MemoryText[]): MemorySupersessionFinding[] {
  const analysed = memories.map(analyseMemory);
  const byWord = new Map<string, number[]>();
  analysed.forEach((m, i) => {
    for (const w of new Set([...m.words, ...m.settings.keys()])) {
      const list = byWord.get(w) ?? [];
      list.push(i);
      byWord.set(w, list);
    }
  });
  const seen = new Set<string>();
  const found: MemorySupersessionFinding[] = [];
  for (const list of byWord.values()) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const i = list[x] as number;
        const j = list[y] as number;
        const key = i < j ? `${i}:${j}` : `${j}:${i}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const f = detectMemorySupersession(analysed[i] as AnalysedMemory, analysed[j] as AnalysedMemory);
        if (f) found.push(f);
      }
    }
  }
  const created = new Map(memories.map((m) => [m.id, m.createdAt]));
  return found.sort((p, q) => (created.get(p.newerId) ?? '').localeCompare(created.get(q.newerId) ?? '') || p.olderId.localeCompare(q.olderId));
}
