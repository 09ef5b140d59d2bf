/**
 * `agent-memory session start [--session KEY] [--project P] [--harness H] [--query TEXT] [--json]`
 * `agent-memory session turn KEY [--role user|assistant|tool] TEXT`
 * `agent-memory session end KEY [--json]`
 * The session lifecycle from the command line. Without an LLM, continuity is
 * scored by the overlap proxy and facts are extracted heuristically.
 */
import { MemoryError } from '../../core/errors';
import type { SessionService } from '../../core/sessions/sessionService';
import { formatInjection } from '../../core/sessions/sessionStart';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { noCliLlm, withCliEngine } from '../openCliStore';
import type { CliIo } from '../run';

const ROLES = ['user', 'assistant', 'tool'] as const;

/** Runs `fn` on the sessions of the CLI's engine (no LLM: heuristic capture, overlap continuity). */
function withCliSessions<T>(args: ParsedArgs, io: CliIo, fn: (sessions: SessionService) => Promise<T>): Promise<T> {
  return withCliEngine(args, io, { llm: noCliLlm }, (engine) => fn(engine.sessions));
}

export async function sessionCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const [sub, ...rest] = args.positionals;
  const json = args.flags.json === true;
  if (sub === 'start') {
    const r = await withCliSessions(args, io, (sessions) => sessions.start({
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
    const seq = await withCliSessions(args, io, (sessions) => sessions.turn(key, role as (typeof ROLES)[number], text));
    io.stdout(json ? JSON.stringify({ sessionKey: key, seq }) + '\n' : `${seq}\n`);
    return 0;
  }
  if (sub === 'end') {
    const key = rest[0];
    if (!key) throw new MemoryError('E_USAGE', 'usage: agent-memory session end KEY [--json]');
    const r = await withCliSessions(args, io, (sessions) => sessions.end(key));
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
