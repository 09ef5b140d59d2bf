import { systemClock } from '../../core/clock';
import type { MemorySettings } from '../../core/config/memorySettings';
import { DEFAULT_REDACTION_CONFIG } from '../../core/config/redactionConfig';
import { MemoryError } from '../../core/errors';
import type { LlmClient } from '../../core/hostContext';
import { readTextFileBounded } from '../../core/ingest/boundedRead';
import { INGEST_MAX_FILE_BYTES, parseJsonl, ingestMemories } from '../../core/ingest/jsonlIngest';
import { JobWorker } from '../../core/jobs/jobWorker';
import { createPipelineHandlers } from '../../core/jobs/pipelineHandlers';
import { parseLeaseOwner } from '../../core/jobs/leaseOwner';
import { drainUntilSettled } from '../../core/jobs/settle';
import type { SettleWait } from '../../core/jobs/settle';
import { createOpenAiCompatibleClient } from '../../core/llm/openAiCompatibleClient';
import { withPromptRedaction } from '../../core/llm/redactingLlm';
import { createStreamLogger } from '../../core/logger';
import type { Logger } from '../../core/logger';
import type { Embedder } from '../../core/models/embedder';
import { WorkerEmbedder } from '../../core/models/workerEmbedder';
import { defaultRememberDeps } from '../../core/memory/remember';
import type { RememberDeps } from '../../core/memory/remember';
import type { MemoryStore } from '../../core/store/storeTypes';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { withCliStore } from '../openCliStore';
import type { CliCommand, CliIo } from '../run';
import { defaultModelDir } from './recall';

/** Longest a CLI command waits for background work before giving up (E_TIMEOUT). */
export const CLI_SETTLE_MAX_MS = 30 * 60_000;

export interface PipelineCliOptions {
  /** Embedder factory (tests pass a fake; default: the bundled USE-lite model if present). */
  readonly embedder?: () => Embedder | undefined;
  /** LLM factory (tests); default: --llm-url/--llm-model or AGENT_MEMORY_LLM_URL/AGENT_MEMORY_LLM_MODEL. */
  readonly llm?: (args: ParsedArgs) => LlmClient | undefined;
}

/** An OpenAI-compatible LLM from flags or environment, or none (then extraction is heuristic). */
export function cliLlm(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): LlmClient | undefined {
  const url = stringFlag(args, 'llm-url') ?? env.AGENT_MEMORY_LLM_URL;
  const model = stringFlag(args, 'llm-model') ?? env.AGENT_MEMORY_LLM_MODEL;
  if (!url && !model) return undefined;
  if (!url || !model) throw new MemoryError('E_USAGE', 'An LLM needs both --llm-url and --llm-model (or AGENT_MEMORY_LLM_URL and AGENT_MEMORY_LLM_MODEL).');
  const apiKey = env.AGENT_MEMORY_LLM_KEY;
  return withPromptRedaction(createOpenAiCompatibleClient({ baseUrl: url, model, ...(apiKey ? { apiKey } : {}) }), DEFAULT_REDACTION_CONFIG);
}

export function cliEmbedder(options: PipelineCliOptions): Embedder | undefined {
  if (options.embedder) return options.embedder();
  const dir = defaultModelDir();
  return dir ? new WorkerEmbedder({ modelDir: dir }) : undefined;
}

/** Remember deps as the extension's runtime builds them: extraction only with the knowledge graph on. */
export function cliRememberDeps(embedder: Embedder | undefined, settings: MemorySettings): RememberDeps {
  return defaultRememberDeps(systemClock, { jobs: settings.jobs, enqueue: { embed: embedder !== undefined, extract: settings.graphEnabled, hints: false } });
}

/** How often (at most) the CLI repeats an unchanged "waiting for background jobs" line. */
const WAIT_REPEAT_MS = 10_000;
/** Job progress lines: none during the first PROGRESS_FIRST_MS, then at most one per PROGRESS_EVERY_MS. */
const PROGRESS_FIRST_MS = 2_000;
const PROGRESS_EVERY_MS = 5_000;

/** One line saying what a settling CLI command waits for (jobs another live process holds, or retry backoff). */
export function describeSettleWait(wait: SettleWait): string {
  const held = wait.heldBy.map((h) => {
    const who = parseLeaseOwner(h.owner);
    const by = who ? `process ${who.pid} on ${who.host}` : `worker ${h.owner}`;
    return `${h.jobs} leased by ${by}${h.until ? ` until ${h.until}` : ''}`;
  });
  return `agent-memory: waiting for ${wait.unfinished} background job(s)${held.length ? ` (${held.join('; ')})` : ' (retrying after a failure)'}; Ctrl+C stops waiting, the jobs stay queued\n`;
}

/** Runs the write pipeline's jobs in this process until they are all done, saying on stderr what it waits for. */
export async function settlePipeline(store: MemoryStore, embedder: Embedder | undefined, llm: LlmClient | undefined, logger: Logger, io: CliIo, settings: MemorySettings): Promise<void> {
  const handlers = createPipelineHandlers({ embedder, llm, extraction: settings.extraction, graph: settings.graph, logger });
  // Progress on stderr while this process works through the jobs: first after a short pause (a
  // quick ingest stays quiet), then at most every PROGRESS_EVERY_MS.
  const started = Date.now();
  let lastProgress = 0;
  const progress = {
    report: (u: { message?: string }): void => {
      const now = Date.now();
      if (!u.message || now - started < PROGRESS_FIRST_MS || now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      io.stderr(`agent-memory: background jobs (embedding, extraction): ${u.message}\n`);
    },
  };
  const worker = new JobWorker({ store, handlers, config: settings.jobs, clock: systemClock, logger, progress });
  let last = { line: '', at: 0 };
  const onWait = (wait: SettleWait): void => {
    const line = describeSettleWait(wait);
    const now = Date.now();
    if (line === last.line && now - last.at < WAIT_REPEAT_MS) return;
    last = { line, at: now };
    io.stderr(line);
  };
  const stats = await drainUntilSettled(worker, store, systemClock, { maxWaitMs: CLI_SETTLE_MAX_MS, onWait });
  if (stats.dead) io.stderr(`agent-memory: ${stats.dead} background job(s) failed; see \`agent-memory stats\`\n`);
}

/**
 * `agent-memory ingest FILE.jsonl [--no-wait] [--llm-url URL --llm-model M]`: one memory a line
 * {content, type?, sourceId?, createdAt?, sessionId?, who?, project?, tags?}. Prints
 * {"ingested","duplicates","ms"} once every new memory is embedded and extracted (searchable by
 * every arm), or right after the write with --no-wait (the jobs stay queued).
 */
export function makeIngestCommand(options: PipelineCliOptions = {}): CliCommand {
  return async (args, io) => {
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) throw new MemoryError('E_USAGE', 'ingest needs one JSONL file, e.g. agent-memory ingest memories.jsonl');
    const inputs = parseJsonl(readTextFileBounded(file, INGEST_MAX_FILE_BYTES));
    const started = performance.now();
    const llm = (options.llm ?? cliLlm)(args);
    const embedder = cliEmbedder(options);
    const logger = createStreamLogger(args.flags.verbose === true ? 'debug' : 'warn');
    if (!embedder) io.stderr('agent-memory: no embedding model found; memories are searchable by keyword only\n');
    try {
      const result = await withCliStore(args, async (store, settings) => {
        const r = await ingestMemories(store, inputs, cliRememberDeps(embedder, settings));
        if (args.flags['no-wait'] !== true) await settlePipeline(store, embedder, llm, logger, io, settings);
        return r;
      });
      io.stdout(JSON.stringify({ ingested: result.ingested, duplicates: result.duplicates, ms: Math.round(performance.now() - started) }) + '\n');
      return 0;
    } finally {
      await embedder?.dispose();
    }
  };
}

export const ingestCommand: CliCommand = makeIngestCommand();
