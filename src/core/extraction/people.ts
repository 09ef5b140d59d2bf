import type { Mention, MentionVocabulary } from './entityMentions';

/**
 * People in conversations (docs/extraction.md): the speaker of a memory (`who`) when it is a
 * personal name, the `Name:` prefix of a transcript turn, and the names people call each other
 * ("Hi Sam", "Thanks, Melanie!", "Melanie said", "told Sam that") become `person` entities; a mention elsewhere in the text with the
 * same name is typed `person` too. Agent and role labels (`user`, `claude-code`) are not people.
 */

const NAME = "[A-Z][a-z]+(?:['’-][A-Za-z]+)?";
const PERSON_NAME = new RegExp(`^${NAME}(?: ${NAME}){0,2}$`);
const SPEAKER = new RegExp(`^[ \\t]*(${NAME}(?: ${NAME})?):[ \\t]`, 'gm');
const SPEECH = new RegExp(`\\b(${NAME}) (?:said|says|told|asked|asks|wrote|mentioned|replied|suggested|agreed|thinks|thought|explained)\\b|\\b(?:told|asked|thanked|met|called|messaged|emailed|with|and) (${NAME}) (?:that|about|to|yesterday|today|last|and)\\b`, 'g');
const VOCATIVE = new RegExp(`\\b(?:[Hh]i|[Hh]ey|[Hh]ello|[Tt]hanks|[Tt]hank you|[Bb]ye|[Dd]ear|[Cc]ongrats|[Cc]ongratulations|[Ss]orry|[Gg]ood (?:morning|night|luck)|[Ww]elcome back|[Mm]orning)[ \\t]*,?[ \\t]+(${NAME})\\b`, 'g');

/** True when `who` reads as a personal name (not a role, an agent id or an ordinary word). */
export function isPersonName(who: string | null | undefined, vocab: MentionVocabulary): who is string {
  if (!who) return false;
  const name = who.trim();
  if (!PERSON_NAME.test(name)) return false;
  return !name.split(' ').some((w) => vocab.stopwords.has(w) || vocab.neverEntities.has(w.toLowerCase()) || vocab.genericNouns.has(w.toLowerCase()));
}

/** The people a text names as speakers or addressees, plus the memory's speaker. */
export function peopleOf(text: string, who: string | undefined, vocab: MentionVocabulary): string[] {
  const out = new Map<string, string>();
  const add = (n: string | undefined): void => { if (n && isPersonName(n, vocab) && !out.has(n.toLowerCase())) out.set(n.toLowerCase(), n); };
  add(who?.trim());
  // A `Word:` line prefix is a speaker only in a transcript (two or more speakers) or when it is the
  // memory's own speaker; otherwise it is a heading ("Decision: …", "Note: …").
  const speakers = [...new Set([...text.matchAll(SPEAKER)].map((m) => m[1] as string))];
  if (speakers.length >= 2) for (const s of speakers) add(s);
  for (const m of text.matchAll(VOCATIVE)) add(m[1]);
  for (const m of text.matchAll(SPEECH)) add(m[1] ?? m[2]);
  return [...out.values()];
}

/**
 * A sentence's mentions with the known people in it: a mention whose name is a person's becomes a
 * `person`; an occurrence of a person's name that no mention covers is added.
 */
export function withPeople(sentence: string, mentions: readonly Mention[], people: readonly string[]): Mention[] {
  if (!people.length) return [...mentions];
  const lower = new Set(people.map((p) => p.toLowerCase()));
  const out: Mention[] = mentions.map((m) => (lower.has(m.name.toLowerCase()) ? { ...m, type: 'person' } : m));
  for (const p of people) {
    for (const m of sentence.matchAll(new RegExp(`(?<![\\w@])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'g'))) {
      const start = m.index ?? 0;
      const end = start + p.length;
      if (out.some((x) => start < x.end && end > x.start)) continue;
      out.push({ name: p, type: 'person', start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
