import type { Mention } from './entityMentions';

/**
 * Keyed value claims without a language model (docs/extraction.md, "Value claims"): a setting, a
 * port or a version stated in a sentence becomes one claim in a fixed slot of its entity
 * (`SHORT_BOOK_PAGES = 220`, claim key `value`; the server's `port = 4310`; `version = 0.3.0`),
 * so a later value lands in the same slot and supersedes the earlier one on write
 * (graph/attributeWrites.ts), and "what is X now" has one answer. The sentence stays the claim's
 * source through its memory. The claim keys follow the reference design's slots
 * (/work/shared/reference/signet-spec.md: claim_key names the slot a value fills).
 */
export interface ValueClaim {
  /** The entity the value belongs to: a mention of the sentence, or its subject phrase (`server`). */
  readonly owner: Mention;
  /** Slot name: `value` for a named constant or setting, `port`, `version`. */
  readonly key: 'value' | 'port' | 'version';
  readonly value: string;
}

/** The aspect and group every value claim is written to. */
export const CONFIGURATION_ASPECT = 'configuration';

const NUMBER = String.raw`-?\d[\d_,]*(?:\.\d+)?(?:\s?(?:ms|s|seconds|minutes|hours|days|kb|mb|gb|%|px|pages|items))?`;
/** "is 220", "is now 220", "is set to 180", "= 4", "set to 3", "raised to 220", "defaults to 10". */
const SETTING_RE = new RegExp(String.raw`(?:\bis(?:\s+now)?(?:\s+set)?(?:\s+to)?|=|\bset\s+to|\b(?:raised|lowered|changed|bumped|increased|decreased)\s+to|\bdefaults?\s+to)\s+(${NUMBER}|true|false|"[^"]{1,40}")(?![\w/-])`, 'i');
/** "listens on port 8080", "now listens on 127.0.0.1:4310", "runs on localhost:3000". */
const LISTEN_RE = /\b(?:listens?|listening|runs?|running|serves?|serving|binds?|bound)\s+(?:only\s+)?(?:on|to)\s+(?:port\s+)?(?:(?:\d{1,3}\.){3}\d{1,3}:|localhost:|\[[:\da-f]+\]:)?(\d{2,5})\b(?!\.\d|:)/i;
/** "port is 4310", "PORT = 4310", "port set to 4310". */
const PORT_RE = /\bport\s+(?:is\s+(?:now\s+)?|=\s*|set\s+to\s+|changed\s+to\s+)(\d{2,5})\b/i;
/** "version … to 0.3.0", "version is 2.1". */
const VERSION_RE = /\bversion\b[^;:]{0,60}?\b(?:to|is|=)\s+v?(\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)\b/i;

const ADVERBS = new Set(['now', 'still', 'also', 'currently', 'always', 'only', 'then', 'already']);
const SUBJECT_STOP = new Set(['we', 'i', 'you', 'they', 'it', 'he', 'she', 'this', 'that', 'which', 'who', 'so', 'and', 'but', 'or']);

/** The noun before a verb ("the server now listens" → `server`), as a concept mention. */
function subjectBefore(s: string, at: number): Mention | undefined {
  const words = [...s.slice(0, at).matchAll(/[A-Za-z][\w-]*/g)];
  while (words.length && ADVERBS.has((words.at(-1)?.[0] ?? '').toLowerCase())) words.pop();
  const last = words.at(-1);
  if (!last || SUBJECT_STOP.has(last[0].toLowerCase()) || last[0].length < 3) return undefined;
  const start = last.index ?? 0;
  return { name: last[0].toLowerCase(), type: 'concept', start, end: start + last[0].length };
}

/** True when the mention is a constant or setting by its shape or type (`SHORT_BOOK_PAGES`, `maxRetries`). */
const isSettingName = (m: Mention): boolean => m.type === 'symbol' && !/[\s/]/.test(m.name);

/** The value claim of one sentence, if it states one; undefined otherwise. */
export function findValueClaim(s: string, mentions: readonly Mention[]): ValueClaim | undefined {
  if (s.trim().endsWith('?')) return undefined; // a question states no value
  const listen = LISTEN_RE.exec(s) ?? PORT_RE.exec(s);
  if (listen?.[1]) {
    // The thing that listens: the mention right before the verb, else the subject noun.
    const before = mentions.filter((m) => m.end <= listen.index).at(-1);
    const owner = before && s.slice(before.end, listen.index).trim().split(/\s+/).length <= 2 ? before : subjectBefore(s, listen.index);
    return owner ? { owner, key: 'port', value: listen[1] } : undefined;
  }
  const version = VERSION_RE.exec(s);
  if (version?.[1]) {
    const owner = mentions.find((m) => m.type === 'file' || m.type === 'package' || m.type === 'project') ?? mentions[0];
    return owner ? { owner, key: 'version', value: version[1] } : undefined;
  }
  const setting = mentions.find(isSettingName);
  if (!setting) return undefined;
  const m = SETTING_RE.exec(s.slice(setting.end));
  if (!m?.[1]) return undefined;
  return { owner: setting, key: 'value', value: m[1].replace(/^"|"$/g, '') };
}

/** The claim's text: `SHORT_BOOK_PAGES = 220`, `port = 4310`, `version = 0.3.0`. */
export function valueClaimText(c: ValueClaim): string {
  return `${c.key === 'value' ? c.owner.name : c.key} = ${c.value}`;
}
