/**
 * `agent-memory extract [--json] [--who NAME] TEXT` and `agent-memory extract --stdin` (one JSON
 * `{"text": ..., "who"?: ...}` a line in, one JSON `{"entities": [{name, type}], "relations": [...],
 * "facts": [...]}` a line out, in order). Runs the default extractor exactly as `ingest` does
 * (the engine's extractor without an LLM: the heuristic extractor with the learned tagger); touches no store.
 */
import { createInterface } from 'node:readline';
import { engineExtractor } from '../../core/engine/engineModels';
import { MemoryError, userMessage } from '../../core/errors';
import type { ExtractionPayload } from '../../core/extraction/contract';
import { createStreamLogger } from '../../core/logger';
import { stringFlag } from '../args';
import { cliEngineConfig } from '../openCliStore';
import type { CliCommand } from '../run';

export interface ExtractOutput {
  readonly entities: readonly { readonly name: string; readonly type: string }[];
  readonly relations: readonly { readonly from: string; readonly to: string; readonly type: string }[];
  readonly facts: readonly { readonly entity: string; readonly type: string; readonly content: string; readonly aspect: string; readonly claimKey: string | null }[];
}

export function extractOutput(p: ExtractionPayload): ExtractOutput {
  return {
    entities: (p.entities ?? []).map((e) => ({ name: e.name, type: e.type })),
    relations: (p.relations ?? []).map((r) => ({ from: r.from, to: r.to, type: r.type })),
    facts: (p.facts ?? []).map((f) => ({ entity: f.entity, type: f.type, content: f.content, aspect: f.aspect, claimKey: f.claim_key })),
  };
}

function formatText(o: ExtractOutput): string {
  if (!o.entities.length) return 'No entities.\n';
  const lines = o.entities.map((e) => `${e.name} (${e.type})`);
  for (const r of o.relations) lines.push(`${r.from} -${r.type}-> ${r.to}`);
  for (const f of o.facts) lines.push(`${f.entity}: [${f.type}] ${f.content}`);
  return lines.join('\n') + '\n';
}

/** One stdin request: `{"text": string, "who"?: string}`; anything else is a clear error. */
export function extractRequestFromJson(line: string): { text: string; who?: string } {
  let v: unknown;
  try { v = JSON.parse(line); } catch { throw new MemoryError('E_INVALID_INPUT', 'Each line must be a JSON object like {"text": "..."}.'); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MemoryError('E_INVALID_INPUT', 'Each line must be a JSON object like {"text": "..."}.');
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'text' && k !== 'who');
  if (extra.length) throw new MemoryError('E_INVALID_INPUT', `Unknown field '${extra[0]}'; a request has "text" and optionally "who".`);
  if (typeof o.text !== 'string') throw new MemoryError('E_INVALID_INPUT', '"text" must be a string.');
  if (o.who !== undefined && typeof o.who !== 'string') throw new MemoryError('E_INVALID_INPUT', '"who" must be a string.');
  return { text: o.text, ...(typeof o.who === 'string' ? { who: o.who } : {}) };
}

export function makeExtractCommand(options: { readonly input?: () => NodeJS.ReadableStream } = {}): CliCommand {
  return async (args, io) => {
    const stdin = args.flags.stdin === true;
    const who = stringFlag(args, 'who');
    const text = args.positionals.join(' ');
    if (!stdin && !text.trim()) throw new MemoryError('E_USAGE', 'extract needs text, e.g. agent-memory extract "We moved the API to PostgreSQL."');
    if (stdin && text.trim()) throw new MemoryError('E_USAGE', 'extract --stdin reads requests from standard input; give no text argument.');
    // The extractor the engine's extract jobs run with the CLI's settings (no LLM: heuristic).
    const extractor = engineExtractor(cliEngineConfig(args), undefined, createStreamLogger('warn', (l) => io.stderr(l + '\n')));
    if (!stdin) {
      const out = extractOutput((await extractor.extract(text, undefined, who ? { who } : {})).payload);
      io.stdout(args.flags.json === true ? JSON.stringify(out) + '\n' : formatText(out));
      return 0;
    }
    const rl = createInterface({ input: (options.input ?? (() => process.stdin))(), crlfDelay: Infinity });
    for await (const line of rl) {
      if (line.trim() === '') continue;
      try {
        const req = extractRequestFromJson(line);
        const context = req.who ?? who;
        io.stdout(JSON.stringify(extractOutput((await extractor.extract(req.text, undefined, context ? { who: context } : {})).payload)) + '\n');
      } catch (e) {
        io.stdout(JSON.stringify({ error: { code: e instanceof MemoryError ? e.code : 'E_INTERNAL', message: userMessage(e) } }) + '\n');
      }
    }
    return 0;
  };
}

export const extractCommand = makeExtractCommand();
