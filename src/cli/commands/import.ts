import { closeSync, openSync, readSync } from 'node:fs';
import { MemoryError } from '../../core/errors';
import { readTextFileBounded } from '../../core/ingest/boundedRead';
import { importTranscript } from '../../core/capture/transcriptImport';
import type { ImportReport } from '../../core/capture/transcriptImport';
import { importTranscriptFileStreamed } from '../../core/capture/transcriptStream';
import { isTranscriptFormat, parseTranscript } from '../../core/capture/transcriptFormat';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { settleCli } from '../cliSettle';
import { withCliEngine } from '../openCliStore';
import type { CliCommand } from '../run';
import type { PipelineCliOptions } from './ingest';
import { importReferenceMemory, looksLikeReferenceMemory, parseReferenceMemory } from '../../core/capture/referenceMemoryImport';
import type { ReferenceImportReport } from '../../core/capture/referenceMemoryImport';

/**
 * Reads a transcript file, refusing a missing, oversized or never-ending one (pipes, devices) and
 * invalid UTF-8 with a coded error.
 */
export function readTranscriptFile(file: string, maxBytes: number): string {
  return readTextFileBounded(file, maxBytes);
}

/** The first line of a file (at most 64 KiB), to tell the reference server's file from a transcript without reading it all. */
function fileStart(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').split('\n', 1)[0] ?? '';
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Largest reference memory file read (the reference server keeps its whole graph in one file). */
const MCP_MEMORY_MAX_BYTES = 256 * 1024 * 1024;

/** A long import reports its progress on stderr this often. */
const PROGRESS_EVERY_MS = 5_000;

function describe(r: ImportReport): string {
  return `imported ${r.format} transcript: ${r.turns} turn(s), ${r.memoriesCreated} new memor${r.memoriesCreated === 1 ? 'y' : 'ies'}, ${r.duplicates} already known (session ${r.sessionKey})\n`;
}

function formatFlag(args: ParsedArgs) {
  const f = stringFlag(args, 'format');
  if (f !== undefined && !isTranscriptFormat(f)) throw new MemoryError('E_USAGE', '--format must be vscode, claude, jsonl or mcp-memory');
  return f;
}

function describeReference(r: ReferenceImportReport): string {
  return `imported MCP memory server file: ${r.entities} entities (${r.entitiesCreated} new), ${r.observationsAdded} new observation(s), ${r.relationsCreated} new relation(s)${r.skipped ? `, ${r.skipped} record(s) skipped` : ''}\n`;
}

/** The reference MCP memory server's memory.jsonl / memory.json (docs/mcp.md, "Import"). */
async function importReferenceFile(args: ParsedArgs, io: Parameters<CliCommand>[1], options: PipelineCliOptions, text: string): Promise<number> {
  const project = stringFlag(args, 'project');
  const report = await withCliEngine(args, io, options, async (engine) => {
    const r = await importReferenceMemory(engine, parseReferenceMemory(text), project ? { project } : {});
    if (args.flags['no-wait'] !== true && r.observationsAdded > 0) await settleCli(engine, io);
    return r;
  });
  io.stdout(args.flags.json === true ? `${JSON.stringify(report)}\n` : describeReference(report));
  return 0;
}

/**
 * `agent-memory import FILE [--format vscode|claude|jsonl] [--project P] [--json] [--no-wait]`:
 * imports another agent's transcript (docs/transcripts.md); waits, like ingest, until the new
 * memories are embedded and extracted unless --no-wait. Importing the same file again is a no-op.
 */
export function makeImportCommand(options: PipelineCliOptions = {}): CliCommand {
  return async (args, io) => {
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) throw new MemoryError('E_USAGE', 'import needs one transcript file, e.g. agent-memory import session.jsonl');
    const wanted = stringFlag(args, 'format');
    if (wanted === 'mcp-memory' || (wanted === undefined && /\.jsonl?$/i.test(file) && looksLikeReferenceMemory(fileStart(file)))) {
      return importReferenceFile(args, io, options, readTranscriptFile(file, MCP_MEMORY_MAX_BYTES));
    }
    const format = formatFlag(args);
    const project = stringFlag(args, 'project');
    const report = await withCliEngine(args, io, options, async (engine) => {
      const store = engine.store;
      const capture = engine.currentSettings.capture;
      const deps = { remember: engine.rememberDeps(), capture };
      // JSONL transcripts are streamed in batches (bounded memory, resumable); a VS Code export is one document.
      let lastReport = performance.now();
      const onProgress = (p: { lines: number; turnsRecorded: number; bytes: number }): void => {
        if (performance.now() - lastReport < PROGRESS_EVERY_MS) return;
        lastReport = performance.now();
        io.stderr(`agent-memory: ${p.lines} lines read (${p.bytes} bytes), ${p.turnsRecorded} turns recorded…\n`);
      };
      const streamed = await importTranscriptFileStreamed(store, file, deps, { onProgress, ...(project ? { project } : {}), ...(format ? { format } : {}) });
      const r = streamed ?? await importTranscript(store, parseTranscript(readTranscriptFile(file, capture.maxFileBytes), { maxTurnChars: capture.maxTurnChars, ...(format ? { format } : {}) }), deps, project ? { project } : {});
      if (args.flags['no-wait'] !== true && r.memoriesCreated > 0) await settleCli(engine, io);
      return r;
    });
    io.stdout(args.flags.json === true ? `${JSON.stringify(report)}\n` : describe(report));
    return 0;
  };
}

export const importCommand: CliCommand = makeImportCommand();
