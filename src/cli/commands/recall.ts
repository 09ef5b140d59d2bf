/**
 * `agent-memory recall [--limit K] [--json] [--explain] [--all] [--session S] [--project P]
 *  [--only lexical|vector] QUERY` and `agent-memory recall --stdin` (one JSON request a line
 * {query, limit?, session?, only?, project?} in, one JSON array of results a line out, in one
 * long-lived process). A result is {id, sourceId, content, score, relevance, type, createdAt,
 * explain?}: `score` ranks within one recall (ranking steps can lift it above 1), `relevance` is it
 * over the recall's best score, on 0–1 (what --explain shows in brackets).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MemoryError, userMessage } from '../../core/errors';
import type { EmbedderFactory } from '../../core/engine/engineModels';
import type { RecallOnly, RecallRequest } from '../../core/recall/recallRequest';
import { EXPLAIN_LEGEND, RELEVANCE_FLOOR, explainResults, relevanceOf, splitByRelevance } from '../../core/recall/explainText';
import type { RecallResult } from '../../core/recall/recallTypes';
import { intFlag, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { noCliLlm, withCliEngine } from '../openCliStore';
import type { CliIo, CliCommand } from '../run';

export const MODELS_ENV = 'AGENT_MEMORY_MODELS';

/** The bundled default model folder: $AGENT_MEMORY_MODELS, else models/use-lite near the CLI or the repo. */
export function defaultModelDir(env: NodeJS.ProcessEnv = process.env, baseDir: string = __dirname): string | undefined {
  const roots = [env[MODELS_ENV], join(baseDir, '..', 'models'), join(baseDir, '..', '..', 'models'), join(baseDir, '..', '..', '..', 'models')];
  for (const root of roots) {
    if (root && existsSync(join(root, 'use-lite', 'config.json'))) return join(root, 'use-lite');
  }
  return undefined;
}

function parseOnly(v: unknown): RecallOnly | undefined {
  if (v === undefined) return undefined;
  if (v === 'lexical' || v === 'vector') return v;
  throw new MemoryError('E_USAGE', "--only must be 'lexical' or 'vector'");
}

/**
 * Human-readable lines; with explain, why each result was recalled in plain words and a legend
 * (src/core/recall/explainText.ts, shared with the Knowledge panel and @memory). Results below the
 * relevance floor are held back unless `all` (docs/recall-design.md, "Explanations").
 */
export function formatResults(results: readonly RecallResult[], explain: boolean, all = false): string {
  if (results.length === 0) return 'No memories matched.\n';
  const { shown, heldBack } = all ? { shown: [...results], heldBack: [] } : splitByRelevance(results);
  const best = Math.max(0, ...results.map((r) => r.score));
  const why = explain ? explainResults(results) : new Map<string, string[]>();
  const lines: string[] = [];
  shown.forEach((r, i) => {
    const text = r.content.replace(/\s+/g, ' ');
    lines.push(`${i + 1}. [${relevanceOf(r.score, best).toFixed(2)}] ${text.length > 200 ? text.slice(0, 199) + '…' : text}`);
    lines.push(`   ${r.type}, ${r.createdAt}, id ${r.id}${r.sourceId ? `, source ${r.sourceId}` : ''}`);
    for (const l of why.get(r.id) ?? []) lines.push(`   - ${l}`);
  });
  if (heldBack.length) lines.push(`(${heldBack.length} weaker result${heldBack.length === 1 ? '' : 's'} held back: below ${RELEVANCE_FLOOR} of the best match; --all shows them)`);
  if (explain) lines.push('', 'How to read this: [n.nn] is the relevance, 0–1, relative to the best result.', ...EXPLAIN_LEGEND.slice(1).map((l) => `  ${l}`));
  return lines.join('\n') + '\n';
}

function requestFromJson(line: string): RecallRequest {
  let v: unknown;
  try { v = JSON.parse(line); } catch { throw new MemoryError('E_INVALID_INPUT', 'The request line is not valid JSON.'); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MemoryError('E_INVALID_INPUT', 'A request must be a JSON object with a query.');
  const o = v as Record<string, unknown>;
  const str = (k: string): string | undefined => {
    if (o[k] === undefined || o[k] === null) return undefined;
    if (typeof o[k] !== 'string') throw new MemoryError('E_INVALID_INPUT', `${k} must be a string.`);
    return o[k] as string;
  };
  if (o.limit !== undefined && typeof o.limit !== 'number') throw new MemoryError('E_INVALID_INPUT', 'limit must be a number.');
  const only = str('only');
  if (only !== undefined && only !== 'lexical' && only !== 'vector') throw new MemoryError('E_INVALID_INPUT', "only must be 'lexical' or 'vector'.");
  const session = str('session'), project = str('project');
  return {
    query: str('query') ?? '',
    ...(o.limit !== undefined ? { limit: o.limit as number } : {}),
    ...(session !== undefined ? { session } : {}),
    ...(project !== undefined ? { project } : {}),
    ...(only !== undefined ? { only: only as RecallOnly } : {}),
  };
}

export interface RecallCommandOptions {
  /** Input for --stdin (tests pass a stream). */
  readonly input?: () => NodeJS.ReadableStream;
  /** Embedder factory (tests pass a fake; default: the configured model, the bundled USE-lite). */
  readonly embedder?: EmbedderFactory;
}

export function makeRecallCommand(options: RecallCommandOptions = {}): CliCommand {
  return async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const limit = intFlag(args, 'limit', 1, 50);
    const only = parseOnly(args.flags.only === true ? 'true' : args.flags.only);
    const session = stringFlag(args, 'session');
    const project = stringFlag(args, 'project');
    const stdin = args.flags.stdin === true;
    const query = args.positionals.join(' ').trim();
    if (!stdin && query === '') throw new MemoryError('E_USAGE', 'recall needs a query, e.g. agent-memory recall "which database do we use"');
    if (stdin && query !== '') throw new MemoryError('E_USAGE', 'recall --stdin reads requests from standard input; give no query argument.');
    // The engine the extension runs, on the CLI's settings; a keyword-only recall loads no model.
    // One intra-op thread: a single short query gains nothing from two, and on small machines a
    // spinning second ONNX thread competes with the arms running on the main thread.
    const embedder = only === 'lexical' ? () => undefined : options.embedder;
    // A --stdin session snapshots on close, so the next command does not replay its bookkeeping.
    return withCliEngine(args, io, { llm: noCliLlm, settings: { 'models.intraOpThreads': 1 }, snapshotOnClose: stdin ? 'always' : 'ifDue', ...(embedder ? { embedder } : {}) }, async (engine) => {
      const explain = args.flags.explain === true;
      if (!stdin) {
        const req: RecallRequest = { query, ...(limit !== undefined ? { limit } : {}), ...(session !== undefined ? { session } : {}), ...(project !== undefined ? { project } : {}), ...(only ? { only } : {}) };
        const out = await engine.recallDetailed(req, { explain });
        if (args.flags.json === true) {
          io.stdout(JSON.stringify(out.items) + '\n');
          // The JSON stays the documented array; an empty one is explained on stderr.
          if (!out.items.length) io.stderr('reason: No memories matched: try other words, or check that the store has memories (agent-memory stats).\n');
        } else io.stdout(formatResults(out.items, args.flags.explain === true, args.flags.all === true));
        if (args.flags.explain === true) for (const n of out.notes) io.stderr(`note: ${n}\n`);
        return 0;
      }
      // A session answers many recalls: load the model, the vector index and the whole lexical
      // index before the first answer, so that every answer is served by them.
      await engine.warm({ lexicalIndexNow: true }).catch(() => undefined);
      const rl = createInterface({ input: (options.input ?? (() => process.stdin))(), crlfDelay: Infinity });
      for await (const line of rl) {
        if (line.trim() === '') continue;
        try {
          const req = requestFromJson(line);
          const out = await engine.recallDetailed(req, { explain });
          io.stdout(JSON.stringify(out.items) + '\n');
        } catch (e) {
          io.stdout(JSON.stringify({ error: { code: e instanceof MemoryError ? e.code : 'E_INTERNAL', message: userMessage(e) } }) + '\n');
        }
      }
      return 0;
    });
  };
}

export const recallCommand: CliCommand = makeRecallCommand();
