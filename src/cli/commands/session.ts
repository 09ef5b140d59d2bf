/**
 * `agent-memory session start [--session KEY] [--project P] [--harness H] [--query TEXT] [--json]`
 * `agent-memory session turn KEY [--role user|assistant|tool] TEXT`
 * `agent-memory session end KEY [--json]`
 * The session lifecycle from the command line. Without an LLM, continuity is
 * scored by the overlap proxy and facts are extracted heuristically.
 */
import { randomUUID } from 'node:crypto';
import { systemClock } from '../../core/clock';
import type { MemorySettings } from '../../core/config/memorySettings';
import { MemoryError } from '../../core/errors';
import { createHeuristicExtractor } from '../../core/extraction/llmExtractor';
import { createStreamLogger } from '../../core/logger';
import type { Logger } from '../../core/logger';
import { defaultRememberDeps } from '../../core/memory/remember';
import { createFeedbackLoop } from '../../core/sessions/feedbackLoop';
import type { FeedbackLoop } from '../../core/sessions/feedbackLoop';
import { formatInjection } from '../../core/sessions/sessionStart';
import { createTranscriptCapture } from '../../core/sessions/transcriptCapture';
import type { MemoryStore } from '../../core/store/storeTypes';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliIo } from '../run';

const ROLES = ['user', 'assistant', 'tool'] as const;

/** The feedback loop as the CLI runs it on the resolved settings: no LLM, heuristic capture. */
export function cliFeedbackLoop(store: MemoryStore, logger: Logger, s: MemorySettings): FeedbackLoop {
  const rememberDeps = defaultRememberDeps(systemClock, { jobs: s.jobs, enqueue: { embed: true, extract: s.graphEnabled, hints: false } });
  const capture = createTranscriptCapture(store, createHeuristicExtractor(s.extraction), rememberDeps);
  return createFeedbackLoop({ store, clock: systemClock, logger, llm: undefined, capture, newId: randomUUID }, { ...s.feedbackLoop, jobs: s.jobs, graph: s.graph, aliases: s.extraction.aliases });
}

export async function sessionCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const [sub, ...rest] = args.positionals;
  const json = args.flags.json === true;
  const logger = createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn', (l) => io.stderr(l + '\n'));
  if (sub === 'start') {
    const r = await withCliStore(args, (store, settings) => cliFeedbackLoop(store, logger, settings).sessions.start({
      ...(stringFlag(args, 'session') !== undefined ? { sessionKey: stringFlag(args, 'session') as string } : {}),
      project: stringFlag(args, 'project') ?? null,
      harness: stringFlag(args, 'harness') ?? 'cli',
      ...(stringFlag(args, 'query') !== undefined ? { query: stringFlag(args, 'query') as string } : {}),
    }));
    if (json) io.stdout(JSON.stringify(r) + '\n');
    else io.stdout(`${r.sessionKey}\n${formatInjection(r.injected)}${r.injected.length ? '\n' : ''}`);
    return 0;
  }
  if (sub === 'turn') {
    const [key, ...words] = rest;
    const text = words.join(' ').trim();
    if (!key || !text) throw new MemoryError('E_USAGE', 'usage: agent-memory session turn KEY [--role user|assistant|tool] TEXT');
    const role = stringFlag(args, 'role') ?? 'user';
    if (!(ROLES as readonly string[]).includes(role)) throw new MemoryError('E_USAGE', `--role must be one of ${ROLES.join(', ')}`);
    const seq = await withCliStore(args, (store, settings) => cliFeedbackLoop(store, logger, settings).sessions.turn(key, role as (typeof ROLES)[number], text));
    io.stdout(json ? JSON.stringify({ sessionKey: key, seq }) + '\n' : `${seq}\n`);
    return 0;
  }
  if (sub === 'end') {
    const key = rest[0];
    if (!key) throw new MemoryError('E_USAGE', 'usage: agent-memory session end KEY [--json]');
    const r = await withCliStore(args, (store, settings) => cliFeedbackLoop(store, logger, settings).sessions.end(key));
    if (json) io.stdout(JSON.stringify(r ?? { sessionKey: key, alreadyEnded: true }) + '\n');
    else if (!r) io.stdout(`session ${key} had already ended\n`);
    else {
      io.stdout(`ended ${key}: ${r.capture?.memoryIds.length ?? 0} new memories${r.capture?.skipped ? ` (${r.capture.skipped})` : ''}; `
        + `continuity ${r.continuity ? `${r.continuity.score.toFixed(2)} (${r.continuity.method})` : 'n/a'}; `
        + `feedback ${r.feedback?.skipped ?? `${r.feedback?.feedbackAspectsUpdated ?? 0} aspects updated`}; `
        + `predictor ${r.predictor?.won === undefined ? 'no comparison (nothing paid off)' : r.predictor.won ? 'beat the baseline' : r.predictor.margin === 0 ? 'tied with the baseline' : 'behind the baseline'}\n`);
    }
    return 0;
  }
  throw new MemoryError('E_USAGE', 'usage: agent-memory session start|turn|end …');
}
