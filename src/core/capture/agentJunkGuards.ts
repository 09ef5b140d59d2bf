import type { SkipReason } from './agentCaptureTypes';

/**
 * The junk guards of agent capture (docs/agents.md, "What is never captured"): audits of
 * automatic memory found most captured entries were restated system prompts, tool output and
 * recalled memories captured again, so every turn passes these checks before any statement of it
 * can become a memory. Turn-level checks reject a whole turn by its shape; statement-level checks
 * reject one statement by what it repeats (an injected memory, an instruction file).
 */

/** Blocks a harness or we put into the conversation that are context, not the user's words. */
const CONTEXT_BLOCKS = /<(agent-memory|system-reminder|instructions|context|attachment|environment_info|workspace_info|reminder|userMemory|repoMemory)\b[^>]*>[\s\S]*?<\/\1>/gi;
/** Our own injection heading (docs/agents.md): anything after it in a turn is an echo. */
export const INJECTION_MARKER = '[agent-memory]';

const STACK_LINE = /^\s*at\s+\S.*(?:\(.*:\d+(?::\d+)?\)|:\d+:\d+)\s*$/m;
const PY_TRACE = /Traceback \(most recent call last\)|^\s*File ".+", line \d+/m;
const JAVA_TRACE = /^\s*(?:Exception in thread|Caused by: )|^\s*at [\w$.]+\([\w$]+\.java:\d+\)/m;
const DIFF = /^(?:diff --git |--- a\/|\+\+\+ b\/|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|Index: \S)/m;
const LOG_LINE = /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?[^\]\s]*\]?|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\]?[:\s]|npm (?:ERR!|WARN)|\d{2}:\d{2}:\d{2}(?:\.\d+)?\s)/;
const CODE_LINE = /^\s*(?:import\s.+from\s|from\s+\S+\s+import\s|const\s+\w+\s*=|let\s+\w+\s*=|var\s+\w+\s*=|function\s+\w+\s*\(|def\s+\w+\s*\(|class\s+\w+[\s:({]|export\s+(?:default\s+)?(?:function|const|class|interface|type)\b|return\b.*;|#include\s|public\s+(?:static\s+)?\w+|[{}()[\];]+\s*$|.*[;{]\s*$|\s*\/\/|\s*#!|\s*<\/?[a-z][\w-]*(?:\s+[\w-]+="[^"]*")*\s*\/?>\s*$)/;
const GREETING = /^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|greetings|yo)\b[\s,!.a-z]{0,30}$/i;
const ACK = /^(?:ok(?:ay)?|k|sure|thanks?(?: you)?(?: so much)?|thx|ty|great|perfect|nice|cool|awesome|got it|sounds good|looks good(?: to me)?|lgtm|yes|yep|yeah|no|nope|done|fine|right|makes sense|understood|will do|go ahead|continue|carry on|please continue|that works|good job|well done)\b[\s,!.a-z]{0,40}$/i;
const INSTRUCTION_FILE = /(?:copilot-instructions\.md|\bAGENTS\.md\b|\bCLAUDE\.md\b|\.instructions\.md\b|\.cursorrules\b|\bGEMINI\.md\b)/i;

/** Removes context blocks and everything from our own injection marker on. */
export function stripContext(text: string): string {
  const cut = text.indexOf(INJECTION_MARKER);
  const head = cut >= 0 ? text.slice(0, cut) : text;
  return head.replace(CONTEXT_BLOCKS, ' ').trim();
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => l.trim());
}

/** The share of non-blank lines matching `re`. */
function share(ls: readonly string[], re: RegExp): number {
  if (!ls.length) return 0;
  return ls.filter((l) => re.test(l)).length / ls.length;
}

/**
 * Why a whole turn is junk, or undefined when its statements may be read. `text` is the turn
 * after stripContext; fenced code is judged by the caller (it is removed before statements are read).
 */
export function turnJunk(role: 'user' | 'assistant' | 'tool', text: string): SkipReason | undefined {
  if (role === 'tool') return 'tool-output';
  const t = text.trim();
  if (!t) return 'empty';
  const ls = lines(t);
  if (PY_TRACE.test(t) || JAVA_TRACE.test(t) || ls.filter((l) => STACK_LINE.test(l)).length >= 2) return 'stack-trace';
  if (DIFF.test(t) && ls.filter((l) => /^[+-]/.test(l)).length >= 2) return 'diff';
  if (ls.length >= 2 && share(ls, LOG_LINE) >= 0.5) return 'log';
  if (ls.length >= 2 && share(ls, CODE_LINE) >= 0.5) return 'code';
  const flat = t.replace(/\s+/g, ' ');
  if (flat.length <= 60 && GREETING.test(flat)) return 'greeting';
  if (flat.length <= 70 && ACK.test(flat)) return 'acknowledgement';
  if (/\?\s*$/.test(flat) && !/[.!]\s+\S/.test(flat)) return 'question';
  // A turn that names an instruction file restates it or asks to edit it: either way the file,
  // which the agent loads every session, holds the rule, not the memory.
  if (INSTRUCTION_FILE.test(t) && /\b(?:instructions?|rules?|guidelines?|follow(?:ing)?|according to|as (?:stated|described|written) in|says?|said|per|reminder|from|mentions?|requires?)\b/i.test(t)) return 'instructions';
  return undefined;
}

const WORD = /[\p{L}\p{N}_][\p{L}\p{N}_.\-/]*/gu;
const STOP = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'is', 'are', 'be', 'we', 'i', 'it', 'this', 'that', 'our', 'use', 'will', 'should', 'always', 'never', 'must', 'not', 'do', 'don\'t']);

/** Lower-case content words of a text (for overlap checks). */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0].replace(/[.\-/]+$/, '');
    if (w.length > 1 && !STOP.has(w)) out.add(w);
  }
  return out;
}

/** Share of `a`'s words found in `b` (containment, asymmetric). */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size) return 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / a.size;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size && !b.size) return 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / (a.size + b.size - n);
}

/** Echo threshold: a statement this much contained in an injected memory repeats it. */
export const ECHO_CONTAINMENT = 0.7;
/** Restatement threshold against an instruction file's sentences. */
export const INSTRUCTION_CONTAINMENT = 0.75;

/** Why one statement is junk given what the session was told, or undefined. */
export function statementJunk(statement: string, context: { readonly injected: readonly ReadonlySet<string>[]; readonly instructionSentences: readonly ReadonlySet<string>[] }): SkipReason | undefined {
  const words = contentWords(statement);
  if (words.size === 0) return 'empty';
  // an echo either says little beyond the memory, or carries (almost) all of the memory inside it
  for (const m of context.injected) if (containment(words, m) >= ECHO_CONTAINMENT || (m.size >= 3 && containment(m, words) >= ECHO_CONTAINMENT + 0.2)) return 'echo';
  for (const s of context.instructionSentences) if (containment(words, s) >= INSTRUCTION_CONTAINMENT) return 'instructions';
  // a statement stitched from several instruction lines ("use strict mode and run the tests first")
  if (words.size >= 3 && context.instructionSentences.length) {
    const all = new Set<string>();
    for (const s of context.instructionSentences) for (const w of s) all.add(w);
    if (containment(words, all) >= INSTRUCTION_CONTAINMENT + 0.05) return 'instructions';
  }
  return undefined;
}

// Cue families (docs/agents.md, "What is captured"): how developers state a decision, a preference
// or a rule in chat. "we agreed that/to/on …" and "let's go with …" state a decision as often as
// "we decided"; a "Decision:" / "Rule:" label states one outright. Apostrophes may be typographic.
const DECISION_CUE = /\b(?:decided|(?:we|we've|we have|the team|everyone|all) agreed (?:that|to|on)|chose|choose|picked|selected|went with|go(?:ing)? with|settled on|adopted|opted for|will use|(?:we|we're|we’re|we are|are|'re|’re|am|'m|’m) (?:moving|switching|migrating) (?:[\w.-]+ ){0,5}?(?:to|from|off)|(?:we|we['’]ll|we will) (?:use|adopt|go with|switch to|move to)|moved to|switched to|migrated to|standardi[sz]ed? on|let(?:'s|’s| us) (?:use|adopt|keep|switch|move|stick with)|(?:replace|replacing|replaced) [\w .-]{1,40} with|dropp(?:ed|ing) [\w .-]{1,40} (?:for|in favou?r of))\b|^\s*(?:from now on|going forward|as of today|(?:decision|rule|policy|convention)\s*:)/i;
const PREFERENCE_CUE = /\b(?:I|we)(?:\s+|(?=['’]))(?:(?:really |strongly )?prefer|like|['’]d rather|would rather|['’]d prefer|would prefer|favou?r)\b|\bI(?:['’]d| would) like (?!you\b|to\b)|\b(?:my|our) (?:strong )?preference\b|^\s*(?:prefer|preference\s*:)/i;
// "has to / needs to" state a rule only with a state verb ("has to be idempotent", "needs to stay
// under 120 kB"); "I need to check the logs" is a plan, not a rule.
const CONSTRAINT_CUE = /\b(?:must|mustn't|never|always|do not|don't|should never|is not allowed|are not allowed|is required|are required|(?<!\bI\s)(?:has|have|need|needs) to (?:be|stay|remain|keep)|(?:every|each|all|any) [^.?!]{1,60}?\b(?:has|have|need|needs) to|may not|no more than|at most)\b/i;

/**
 * The user's own rule-like sentences the entity-driven extractor can miss because they name no
 * technology ("never log full card numbers", "I like short commit messages"): a sentence with a
 * decision, preference or constraint cue, four words or more, not a question. User turns only:
 * an assistant's sentences with such cues are mostly narration of its own plan.
 */
export function cueStatements(prose: string): { content: string; type: 'decision' | 'preference' | 'constraint' }[] {
  const out: { content: string; type: 'decision' | 'preference' | 'constraint' }[] = [];
  for (const raw of prose.split(/(?<=[.!])\s+|\r?\n+/)) {
    const s = raw.trim();
    if (!s || s.endsWith('?') || s.split(/\s+/).length < 4 || contentWords(s).size < 3) continue;
    const type = PREFERENCE_CUE.test(s) ? 'preference' : DECISION_CUE.test(s) ? 'decision' : CONSTRAINT_CUE.test(s) ? 'constraint' : undefined;
    if (type) out.push({ content: s, type });
  }
  return out;
}

/** Sentences of an instruction file as word sets (headings and bullets are sentences too). */
export function instructionSentences(texts: readonly string[]): ReadonlySet<string>[] {
  const out: ReadonlySet<string>[] = [];
  for (const t of texts) {
    for (const s of t.split(/(?<=[.!?])\s+|\r?\n/)) {
      const w = contentWords(s);
      if (w.size >= 2) out.push(w);
    }
  }
  return out;
}

/** Glob → RegExp (`**` any depth, `*` one segment, `?` one char); matched against '/'-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  const g = glob.trim().replace(/\\/g, '/');
  for (let i = 0; i < g.length; i++) {
    const c = g[i] as string;
    if (c === '*') {
      if (g[i + 1] === '*') { re += '.*'; i++; if (g[i + 1] === '/') i++; } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]]/g, '\\$&');
  }
  return new RegExp(`^${re}/?$`, process.platform === 'win32' ? 'i' : '');
}

/** True when `path` (or one of its parent folders) matches one of the globs. */
export function pathExcluded(path: string | undefined, globs: readonly string[]): boolean {
  if (!path || !globs.length) return false;
  const p = path.replace(/\\/g, '/').replace(/\/+$/, '');
  const res = globs.filter((g) => g.trim()).map(globToRegExp);
  const parts = p.split('/');
  for (let i = parts.length; i > 0; i--) {
    const prefix = parts.slice(0, i).join('/') || '/';
    if (res.some((r) => r.test(prefix))) return true;
  }
  return false;
}
