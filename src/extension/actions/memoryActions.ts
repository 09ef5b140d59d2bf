/**
 * The few things users and agents do with memory, shared by the chat participant, the language
 * model tools and the commands. vscode-free; each takes the open engine.
 */
import { isoFromMs, systemClock } from '../../core/clock';
import { MemoryError } from '../../core/errors';
import { markMemoryWrongInTransaction } from '../../core/capture/captureCorrection';
import type { WrongCaptureResult } from '../../core/capture/captureCorrection';
import { forgetMemoryCompletely } from '../../core/memory/forget';
import type { ForgetSummary } from '../../core/memory/forget';
import { countMemories } from '../../core/memory/memoryRecords';
import type { RememberResult } from '../../core/memory/remember';
import { getPinnedEntities, pinEntity, unpinEntity } from '../../core/pinning/pinning';
import type { PinnedEntity, PinResult } from '../../core/pinning/pinning';
import type { RecallResult } from '../../core/recall/recallTypes';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import type { MemoryStore } from '../../core/store/storeTypes';

export const AGENT_ID = 'default';
/** Longest text remembered in one go from chat, a tool or a selection (longer text is chunked by the core). */
export const MAX_REMEMBER_CHARS = 100_000;

export interface RememberOptions {
  readonly type?: string;
  readonly sourceId?: string;
  readonly sourceType?: string;
  readonly project?: string;
  readonly sessionKey?: string;
  readonly who?: string;
}

export async function rememberText(rt: MemoryEngine, text: string, options: RememberOptions = {}): Promise<RememberResult> {
  const content = text.trim();
  if (!content) throw new MemoryError('E_INVALID_INPUT', 'There is nothing to remember: the text is empty.');
  if (content.length > MAX_REMEMBER_CHARS) throw new MemoryError('E_INVALID_INPUT', `That text is longer than ${MAX_REMEMBER_CHARS} characters; remember a shorter passage.`);
  const input = {
    content,
    ...(options.type ? { type: options.type } : {}),
    ...(options.sourceId ? { sourceId: options.sourceId } : {}),
    ...(options.sourceType ? { sourceType: options.sourceType } : {}),
    ...(options.project ? { project: options.project } : {}),
    ...(options.sessionKey ? { sessionKey: options.sessionKey } : {}),
    ...(options.who ? { who: options.who } : {}),
  };
  return rt.remember(input);
}

export async function setEntityPinned(rt: MemoryEngine, idOrName: string, pinned: boolean): Promise<PinResult> {
  const name = idOrName.trim();
  if (!name) throw new MemoryError('E_INVALID_INPUT', 'Name the entity to pin, for example "sqlite".');
  const nowIso = isoFromMs(systemClock.now());
  return rt.store.write(pinned ? 'pin' : 'unpin', (db) => (pinned ? pinEntity(db, AGENT_ID, name, nowIso) : unpinEntity(db, AGENT_ID, name, nowIso)));
}

export function pinnedEntities(rt: MemoryEngine): PinnedEntity[] {
  return rt.store.read((db) => getPinnedEntities(db, AGENT_ID));
}

export interface RecallOptions {
  readonly limit?: number;
  /** Session key: results and lexical hits are tracked for the feedback loop. */
  readonly session?: string;
  /** Whether the results go into a prompt (session_memories.was_injected). */
  readonly injected?: boolean;
  /** Record access counts and session rows (default true; the playground-like previews pass false). */
  readonly track?: boolean;
  /** Record the lexical hits as the session's keyword hits (default true; @memory passes false, RecallRequest.countLexicalHits). */
  readonly countLexicalHits?: boolean;
}

export async function recallMemories(rt: MemoryEngine, query: string, options: RecallOptions = {}): Promise<RecallResult[]> {
  return rt.recall({
    query,
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.session ? { session: options.session } : {}),
    ...(options.injected ? { injected: true } : {}),
    ...(options.countLexicalHits === false ? { countLexicalHits: false } : {}),
  }, options.track === false ? { track: false } : {});
}

export function storeIsEmpty(rt: MemoryEngine): boolean {
  return rt.store.read((db) => countMemories(db)) === 0;
}

export function forget(rt: MemoryEngine<MemoryStore>, id: string): Promise<ForgetSummary> {
  return forgetMemoryCompletely(rt.store, id.trim(), systemClock);
}

/**
 * "Wrong or outdated" (the Recently Captured view and the Knowledge panel's Captured tab): the
 * memory leaves recall keeping its row as history, its attributes are superseded, and the aspects
 * it supported lose one feedback step (core/capture/captureCorrection.ts).
 */
export function markWrong(rt: MemoryEngine<MemoryStore>, id: string): Promise<WrongCaptureResult> {
  const feedback = rt.loop.config.feedback;
  return rt.store.write('memory.wrong', (db) => markMemoryWrongInTransaction(db, id.trim(), rt.clock, { delta: feedback.ftsWeightDelta, minWeight: feedback.minAspectWeight }));
}
