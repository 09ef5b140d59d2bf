/**
 * Varied framings for authored target sentences. An agent rarely writes a fact the same way twice,
 * so each memory type has several framings; the core sentence (which carries the answer) is kept
 * verbatim inside every framing so gold stays correct.
 */
import type { Rng } from './prng';
import type { DevMemoryType, ProjectSpec } from './specTypes';

export interface Framed {
  content: string;
  tags?: string[];
}

type Framer = (text: string, rng: Rng, spec: ProjectSpec) => Framed;

const plain: Framer = (text) => ({ content: text });

function mention(spec: ProjectSpec, rng: Rng): string {
  return rng.pick([`${spec.name}: `, `[${spec.name}] `, `For ${spec.name}, `, '']);
}

/** "For X, We decided" reads badly; lower-case the first letter after a lead-in unless it starts an identifier. */
export function afterLead(text: string): string {
  const first = text.split(/\s/)[0] ?? '';
  if (/^(We|The|Our|Always|Never|Do|Use|Run|Every|All|After|Before|When|If|It|This|That|There|On|In|Only|Keep|Don't|Prefer|Please)$/.test(first)) {
    return text.charAt(0).toLowerCase() + text.slice(1);
  }
  return text;
}

function withLead(lead: string, text: string): string {
  return lead === '' ? text : lead + (lead.endsWith(': ') || lead.endsWith('] ') ? text : afterLead(text));
}

const ADR_CONTEXT = [
  'The question kept coming up in reviews and blocked work on {module}.',
  'Two open PRs took different approaches, so we needed one answer before merging either.',
  'Onboarding notes disagreed with what the code did, and new sessions kept guessing.',
  'A production incident made the trade-off visible and we wanted it written down.',
];
const ADR_CONSEQ = [
  'Docs and onboarding notes need an update; {person} owns that.',
  'Existing code is migrated opportunistically, new code follows this from now on.',
  'Revisit if the constraints change; otherwise do not reopen this in new sessions.',
  'CI checks were adjusted to match.',
];

function fill(template: string, rng: Rng, spec: ProjectSpec): string {
  return template
    .replace('{module}', rng.pick(spec.vocab.modules))
    .replace('{person}', rng.pick(spec.people));
}

const decision: Framer = (text, rng, spec) => {
  const roll = rng.next();
  if (roll < 0.12) {
    const n = rng.int(3, 41);
    const body = `ADR-${String(n).padStart(3, '0')}\n\nContext: ${fill(rng.pick(ADR_CONTEXT), rng, spec)}\n\nDecision: ${text}\n\nConsequences: ${fill(rng.pick(ADR_CONSEQ), rng, spec)}`;
    return { content: body, tags: ['adr'] };
  }
  if (roll < 0.35) return { content: withLead(rng.pick(['Decision: ', 'Decided today: ', 'Settled: ']), text) };
  if (roll < 0.5) return { content: `${text} ${rng.pick(spec.people)} ${rng.pick(['agreed', 'signed off on it', 'approved this in review'])}.` };
  if (roll < 0.65) return { content: withLead(mention(spec, rng), text) };
  return plain(text, rng, spec);
};

const preference: Framer = (text, rng, spec) => {
  const roll = rng.next();
  if (roll < 0.25) return { content: withLead(rng.pick(['User preference: ', 'Preference noted: ', 'Noted for future sessions: ']), text) };
  if (roll < 0.45) return { content: `${text} (${rng.pick(['came up while editing', 'mentioned during the review of', 'said again while we worked on'])} ${rng.pick(spec.vocab.files)[0]})` };
  if (roll < 0.55) return { content: `${text} They asked me to remember this.` };
  return plain(text, rng, spec);
};

const fileFact: Framer = (text, rng, spec) => {
  const roll = rng.next();
  if (roll < 0.2) return { content: withLead(rng.pick(['Code map: ', 'Layout note: ', 'Where things live: ']), text) };
  if (roll < 0.4) return { content: `${text} Worth re-reading before touching ${rng.pick(spec.vocab.modules)}.` };
  if (roll < 0.55) return { content: `While ${rng.pick(spec.vocab.activities)} I found this: ${text}` };
  return plain(text, rng, spec);
};

const bug: Framer = (text, rng, spec) => {
  const roll = rng.next();
  if (roll < 0.25) return { content: `Fixed in PR #${rng.int(120, 2400)}. ${text}` };
  if (roll < 0.45) return { content: withLead(rng.pick(['Bug fix: ', 'Root cause found: ', 'Postmortem note: ']), text) };
  if (roll < 0.55) return { content: withLead(mention(spec, rng), text) };
  return plain(text, rng, spec);
};

const command: Framer = (text, rng, spec) => {
  const roll = rng.next();
  if (roll < 0.25) return { content: withLead(rng.pick(['How-to: ', 'Runbook: ', 'Tip: ']), text) };
  if (roll < 0.4) return { content: `${text} (learned this the hard way in an earlier session)` };
  return plain(text, rng, spec);
};

const constraint: Framer = (text, rng, spec) => {
  const roll = rng.next();
  if (roll < 0.3) return { content: withLead(rng.pick(['Hard rule: ', 'Constraint: ', 'Non-negotiable: ']), text) };
  if (roll < 0.45) return { content: `${text} ${rng.pick(spec.people)} was explicit about this.` };
  return plain(text, rng, spec);
};

const generic: Framer = (text, rng, spec) => {
  const roll = rng.next();
  if (roll < 0.2) return { content: withLead(mention(spec, rng), text) };
  if (roll < 0.3) return { content: withLead('Note: ', text) };
  return plain(text, rng, spec);
};

const FRAMERS: Partial<Record<DevMemoryType, Framer>> = {
  decision, preference, bug, command, constraint,
};

/** Frames a target sentence for its memory type; `fileFact` selects the file-fact framings. */
export function frameTarget(type: DevMemoryType, text: string, rng: Rng, spec: ProjectSpec, isFileFact = false): Framed {
  if (isFileFact) return fileFact(text, rng, spec);
  return (FRAMERS[type] ?? generic)(text, rng, spec);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Event framing that states the date the memory was written (ISO or month name). */
export function frameEvent(text: string, createdAt: string, rng: Rng): string {
  const d = new Date(createdAt);
  const iso = createdAt.slice(0, 10);
  const human = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
  return rng.pick([`${iso}: ${text}`, `On ${human}: ${text}`, `${text} (${iso})`, `Changelog ${iso}. ${text}`, text]);
}
