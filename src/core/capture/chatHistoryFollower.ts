import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { userMessage } from '../errors';
import type { Logger } from '../logger';
import type { ChatLogCursor } from './chatHistoryLedger';
import type { TranscriptTurn } from './transcriptTypes';
import { ChatSessionLogReplay, chatSessionView, emptySkips, firstLineIdentity, newRequestTurns } from './vscodeChatSessionLog';
import type { ChatLogSkips } from './vscodeChatSessionLog';

/**
 * Follows one workspace's VS Code chat-session logs (`chatSessions/*.jsonl`, older `*.json`)
 * incrementally and hands each finished request's turns to `capture` once (docs/agents.md, "VS Code
 * chat history"). Per file it keeps a cursor (first-line identity, byte offset of the complete
 * lines applied, request ids handed over) through `cursors`, and the replayed state in memory for
 * the files it saw lately (dropped when a hand-over fails, so the next pass retries it); a log
 * that shrank or whose first line changed was rewritten and is replayed from the start. Work is serial and asynchronous (file reads through fs/promises), so
 * it never holds the event loop for a whole folder; nothing in a log's content throws: unknown
 * shapes are counted in `stats.skips`.
 */

export interface ChatHistoryCursors {
  get(path: string): ChatLogCursor | undefined | Promise<ChatLogCursor | undefined>;
  set(path: string, cursor: ChatLogCursor): Promise<void>;
}

export interface ChatHistoryBatch {
  readonly sessionId: string;
  readonly file: string;
  readonly turns: readonly TranscriptTurn[];
}

export interface ChatHistoryFollowerOptions {
  readonly folder: string;
  readonly cursors: ChatHistoryCursors;
  /** Hands over the turns of newly finished requests; a rejection leaves them to the next pass. */
  readonly capture: (batch: ChatHistoryBatch) => Promise<void>;
  readonly maxTurnChars: number;
  /** Participants captured elsewhere (our own `@memory`). */
  readonly skipAgents: ReadonlySet<string>;
  /** Names that address a skipped participant in the message (`memory`: `@memory …`). */
  readonly skipMentions?: readonly string[];
  readonly logger: Logger;
  /** Replayed states kept in memory (most recently changed files). */
  readonly keepStates?: number;
}

export interface ChatHistoryStats {
  files: number;
  requestsCaptured: number;
  turnsCaptured: number;
  /** Requests to a skipped participant or made by VS Code itself. */
  requestsSkipped: number;
  rewrites: number;
  skips: ChatLogSkips;
  errors: number;
  lastCaptureAt?: string;
}

interface Held { replay: ChatSessionLogReplay; offset: number; identity: string }

const LOG_FILE = /\.jsonl?$/i;

export class ChatHistoryFollower {
  readonly stats: ChatHistoryStats = { files: 0, requestsCaptured: 0, turnsCaptured: 0, requestsSkipped: 0, rewrites: 0, skips: emptySkips(), errors: 0 };
  private readonly held = new Map<string, Held>();
  private chain: Promise<void> = Promise.resolve();
  private readonly pending = new Set<string>();
  private disposed = false;
  private scanQueued = false;

  constructor(private readonly o: ChatHistoryFollowerOptions) {}

  /** Queues every log of the folder (a missing folder is no error: no chat yet). */
  scanAll(): Promise<void> {
    if (this.scanQueued) return this.chain;
    this.scanQueued = true;
    return this.enqueue(async () => {
      this.scanQueued = false;
      let names: string[];
      try { names = await readdir(this.o.folder); } catch { return; }
      const logs = names.filter((n) => LOG_FILE.test(n)).sort();
      this.stats.files = logs.length;
      for (const n of logs) {
        if (this.disposed) return;
        await this.syncNow(join(this.o.folder, n));
      }
    });
  }

  /** Queues one log (a watcher event); repeated events for a queued file collapse into one pass. */
  fileChanged(path: string): Promise<void> {
    if (!LOG_FILE.test(path) || this.pending.has(path)) return this.chain;
    this.pending.add(path);
    return this.enqueue(async () => { this.pending.delete(path); await this.syncNow(path); });
  }

  /** Resolves when every queued pass is done. */
  idle(): Promise<void> { return this.chain; }

  dispose(): void { this.disposed = true; this.held.clear(); }

  private enqueue(fn: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(() => (this.disposed ? undefined : fn())).catch((e: unknown) => {
      this.stats.errors++;
      this.o.logger.warn(`chat history: ${userMessage(e)}`);
    });
    return this.chain;
  }

  private async syncNow(path: string): Promise<void> {
    try {
      if (/\.json$/i.test(path)) await this.syncWholeFile(path);
      else await this.syncLog(path);
    } catch (e) {
      this.stats.errors++;
      this.o.logger.warn(`chat history: ${basename(path)}: ${userMessage(e)}`);
    }
  }

  /** Older VS Code: the whole session as one JSON object, rewritten on every change. */
  private async syncWholeFile(path: string): Promise<void> {
    const text = await readFile(path, 'utf8');
    let state: unknown;
    try { state = JSON.parse(text); } catch { this.stats.skips.lines++; return; }
    const cursor = await this.o.cursors.get(path);
    const identity = firstLineIdentity(text);
    if (cursor && cursor.identity === identity && cursor.offset === Buffer.byteLength(text)) return;
    await this.handOver(path, state, { identity, firstLineLength: Buffer.byteLength(text), offset: Buffer.byteLength(text), done: cursor?.done ?? [] }, true);
  }

  private async syncLog(path: string): Promise<void> {
    const size = (await stat(path)).size;
    const cursor = await this.o.cursors.get(path);
    // Unchanged size: nothing new (a rewrite to exactly the cursor's length is not worth reading the first line for on every poll).
    if (cursor && cursor.offset === size) return;
    let held = this.held.get(path);
    const fh = await open(path, 'r');
    try {
      const first = await readFirstLine(fh, size);
      if (first === undefined) return; // no complete line yet
      const identity = firstLineIdentity(first.text);
      const sameFile = cursor !== undefined && cursor.identity === identity && cursor.firstLineLength === first.bytes && size >= cursor.offset;
      if (cursor && !sameFile) this.stats.rewrites++;
      if (!held || held.identity !== identity || size < held.offset) {
        held = { replay: new ChatSessionLogReplay(), offset: 0, identity };
      }
      const chunk = await readFrom(fh, held.offset, size);
      const end = chunk.lastIndexOf(0x0a);
      if (end < 0) return;
      const before = { ...held.replay.skips };
      held.replay.applyLines(chunk.subarray(0, end + 1).toString('utf8'));
      held.offset += end + 1;
      this.countSkips(before, held.replay.skips);
      this.remember(path, held);
      try {
        await this.handOver(path, held.replay.state, { identity, firstLineLength: first.bytes, offset: held.offset, done: cursor?.done ?? [] });
      } catch (e) {
        // The lines are applied but not handed over (the store busy in another process, say): drop
        // the replayed state so the next pass (a watcher event or the periodic rescan) replays the
        // log from the start and hands over, by the cursor's `done` list, what was not taken.
        this.held.delete(path);
        throw e;
      }
    } finally {
      await fh.close();
    }
  }

  private async handOver(path: string, state: unknown, next: ChatLogCursor, finished = false): Promise<void> {
    const skips = emptySkips();
    const view = chatSessionView(state, skips, finished);
    this.stats.skips.requests += skips.requests;
    const done = new Set(next.done);
    const { ready, skippedOwn } = newRequestTurns(view, { maxTurnChars: this.o.maxTurnChars, skipAgents: this.o.skipAgents, skipMentions: this.o.skipMentions ?? [], done });
    this.stats.requestsSkipped += skippedOwn;
    const sessionId = view.sessionId ?? basename(path).replace(LOG_FILE, '');
    const turns = ready.flatMap((r) => r.turns);
    if (turns.length) {
      await this.o.capture({ sessionId, file: path, turns });
      this.stats.requestsCaptured += ready.filter((r) => r.turns.some((t) => t.role === 'user')).length;
      this.stats.turnsCaptured += turns.length;
      this.stats.lastCaptureAt = new Date().toISOString();
    }
    for (const r of ready) for (const k of r.keys) done.add(k);
    await this.o.cursors.set(path, { ...next, done: [...done] });
  }

  private remember(path: string, held: Held): void {
    this.held.delete(path);
    this.held.set(path, held);
    const keep = this.o.keepStates ?? 16;
    while (this.held.size > keep) this.held.delete(this.held.keys().next().value as string);
  }

  private countSkips(before: ChatLogSkips, after: ChatLogSkips): void {
    this.stats.skips.lines += after.lines - before.lines;
    this.stats.skips.mutations += after.mutations - before.mutations;
  }
}

type Handle = Awaited<ReturnType<typeof open>>;

/** The first complete line (without its newline) and its byte length; undefined before the first newline. */
async function readFirstLine(fh: Handle, size: number): Promise<{ text: string; bytes: number } | undefined> {
  const parts: Buffer[] = [];
  let pos = 0;
  const step = 64 * 1024;
  while (pos < size) {
    const buf = Buffer.alloc(Math.min(step, size - pos));
    const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
    if (bytesRead <= 0) break;
    const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
    if (nl >= 0) {
      parts.push(buf.subarray(0, nl));
      const line = Buffer.concat(parts);
      return { text: line.toString('utf8'), bytes: line.length };
    }
    parts.push(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return undefined;
}

async function readFrom(fh: Handle, from: number, size: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, size - from));
  let pos = 0;
  while (pos < buf.length) {
    const { bytesRead } = await fh.read(buf, pos, buf.length - pos, from + pos);
    if (bytesRead <= 0) break;
    pos += bytesRead;
  }
  return buf.subarray(0, pos);
}
