/**
 * English noise memories: the everyday chatter of coding-agent sessions (test runs, reviews,
 * profiling, tickets, hand-offs). They share a project's vocabulary with the targets but never
 * restate a target fact, so they act as realistic distractors.
 */
import type { Rng } from './prng';
import type { DevMemoryType, ProjectSpec } from './specTypes';
import {
  BUMP_OUTCOMES, FAIL_REASONS, IDEAS, JOB_NAMES, LINT_RULES, PERF_LOADS, PR_VERBS, TICKET_ISSUES,
  branch, dayText, ident, otherPerson, ticket, version,
} from './noiseParts';

export interface NoiseDraft {
  content: string;
  type: DevMemoryType;
  tags?: string[];
}

type NoiseMaker = (rng: Rng, spec: ProjectSpec) => NoiseDraft;

const file = (rng: Rng, spec: ProjectSpec): [string, string] => rng.pick(spec.vocab.files);

export const EN_NOISE: NoiseMaker[] = [
  (rng, spec) => ({
    type: 'event', tags: ['tests'],
    content: `Ran \`${spec.vocab.testCmd}\`: ${rng.int(40, 900)} passed, ${rng.int(1, 4)} failed. The failure was in ${file(rng, spec)[0]} and came from ${rng.pick(FAIL_REASONS)}.`,
  }),
  (rng, spec) => {
    const [path, role] = file(rng, spec);
    return { type: 'fact', content: rng.pick([`${path} ${role}.`, `Looked at ${path}: it ${role}.`, `For orientation: ${path} ${role}.`]) };
  },
  (rng, spec) => {
    const who = rng.pick(spec.people);
    return { type: 'observation', tags: ['review'], content: `${who} asked to rename ${ident(rng)} to ${ident(rng)} in ${file(rng, spec)[0]} during review; done in the follow-up commit.` };
  },
  (rng, spec) => ({ type: 'observation', content: `Follow-up ${ticket(rng, spec)}: ${rng.pick(spec.vocab.modules)} still ${rng.pick(TICKET_ISSUES)}.` }),
  (rng, spec) => ({
    type: 'observation', tags: ['perf'],
    content: `Profiled ${rng.pick(spec.vocab.modules)} under ${rng.pick(PERF_LOADS)}: p95 was ${rng.int(4, 900)} ms, and most of the time went into ${rng.pick(spec.vocab.libs)}.`,
  }),
  (rng, spec) => {
    const [from, to] = version(rng);
    return { type: 'event', content: `Bumped ${rng.pick(spec.vocab.libs)} from ${from} to ${to} in ${rng.pick(spec.vocab.modules)}; ${rng.pick(BUMP_OUTCOMES)}.` };
  },
  (rng, spec) => ({ type: 'event', tags: ['ci'], content: `CI job "${rng.pick(JOB_NAMES)}" timed out on ${branch(rng, spec)}; a re-run passed, so it looks like flaky runners rather than our code.` }),
  (rng, spec) => ({ type: 'event', content: `Opened PR #${rng.int(100, 2600)} to ${rng.pick(PR_VERBS)} ${rng.pick(spec.vocab.modules)}.` }),
  (rng, spec) => ({ type: 'observation', content: `Read through ${file(rng, spec)[0]} while ${rng.pick(spec.vocab.activities)}; nothing to change there yet.` }),
  (rng, spec) => ({
    type: 'fact',
    content: `${rng.pick(spec.vocab.envVars)} is read at startup by ${rng.pick(spec.vocab.modules)}; locally ${rng.pick(['it is left unset', 'the value from .env.example is enough', 'the dev profile sets it', 'nobody needs to change it'])}.`,
  }),
  (rng, spec) => ({ type: 'observation', content: `Saw ${rng.pick(spec.vocab.errors)} once while ${rng.pick(spec.vocab.activities)}; could not reproduce it afterwards.` }),
  (rng, spec) => {
    const who = rng.pick(spec.people);
    return { type: 'event', content: `${who} is out until ${dayText(rng)}; reviews for ${rng.pick(spec.vocab.modules)} go to ${otherPerson(rng, spec, who)} meanwhile.` };
  },
  (rng, spec) => ({ type: 'observation', content: `User asked whether ${rng.pick(spec.vocab.modules)} could ${rng.pick(IDEAS)}; we agreed to revisit it later.` }),
  (rng, spec) => ({ type: 'event', content: `Split ${file(rng, spec)[0]} into smaller files; behaviour unchanged and the tests stay green.` }),
  (rng, spec) => ({ type: 'event', tags: ['lint'], content: `Enabled the ${rng.pick(LINT_RULES)} lint rule for ${rng.pick(spec.vocab.modules)} and fixed ${rng.int(2, 70)} warnings.` }),
  (rng, spec) => ({ type: 'event', tags: ['docs'], content: `Updated the README section about ${rng.pick(spec.vocab.modules)}; ${rng.pick(spec.people)} wants diagrams added later.` }),
  (rng, spec) => ({ type: 'summary', content: `Handing off to the next session: work on ${rng.pick(spec.vocab.modules)} is about half done on ${branch(rng, spec)}.` }),
  (rng, spec) => ({ type: 'event', content: `Added structured logging around ${rng.pick(spec.vocab.modules)} calls into ${rng.pick(spec.vocab.libs)}; every line now carries the request id.` }),
  (rng, spec) => {
    const libs = rng.shuffle(spec.vocab.libs);
    return { type: 'observation', content: `Skimmed the docs of ${libs[0]} and ${libs[1]} for ${rng.pick(spec.vocab.modules)}; no change planned, just background reading.` };
  },
  (rng, spec) => ({ type: 'observation', content: `The cache directory of ${rng.pick(spec.vocab.modules)} grew to ${rng.int(2, 40)} GB on the shared runner; a cleanup job now prunes it weekly.` }),
  (rng, spec) => ({ type: 'event', tags: ['tests'], content: `Quarantined the flaky test "${ident(rng)} handles ${rng.pick(['empty input', 'retries', 'unicode names', 'large payloads', 'timeouts'])}" in ${file(rng, spec)[0]}; tracked in ${ticket(rng, spec)}.` }),
  (rng, spec) => ({ type: 'observation', content: `${rng.pick(spec.people)} pointed out that ${ident(rng)} in ${rng.pick(spec.vocab.modules)} is called ${rng.int(3, 40)} times per request; worth memoizing some day.` }),
];

/** A long, multi-paragraph session summary built from several short noise lines. */
export function sessionSummary(rng: Rng, spec: ProjectSpec): NoiseDraft {
  const pick = (): string => rng.pick(EN_NOISE)(rng, spec).content;
  const done = [pick(), pick(), pick()];
  const open = [pick(), pick()];
  const content = `Session summary (${spec.name}, ${rng.pick(spec.vocab.modules)})\n\nDone:\n${done.map((d) => `- ${d}`).join('\n')}\n\nStill open:\n${open.map((d) => `- ${d}`).join('\n')}\n\nNext session should start by re-running \`${spec.vocab.testCmd}\`.`;
  return { type: 'summary', tags: ['session-summary'], content };
}

/** Distractors for a decision: same topic and rejected option, but no answer. */
export function decisionDistractor(rng: Rng, spec: ProjectSpec, topic: string, alt: string): NoiseDraft {
  const who = rng.pick(spec.people);
  return {
    type: 'observation',
    content: rng.pick([
      `Spike on ${topic}: ${alt} looked fine in a quick test on a branch; the numbers are in the PR thread.`,
      `${who} asked how ${alt} compares for ${topic}; I pointed them to the earlier discussion.`,
      `Reading list for ${topic}: the ${alt} migration guide and two blog posts ${who} shared.`,
      `A contributor opened an issue proposing ${alt} for ${topic}; labelled it for discussion.`,
    ]),
  };
}
