/**
 * The few things users and agents do with memory, shared by the chat participant, the language
 * model tools and the commands. vscode-free; each takes the open runtime.
 */
import { isoFromMs, systemClock } from '../core/clock';
import { MemoryError } from '../core/errors';
import { forgetMemoryCompletely } from '../core/memory/forget';
import type { ForgetSummary } from '../core/memory/forget';
import { countMemories } from '../core/memory/memoryRecords';
import { remember } from '../core/memory/remember';
import type { RememberResult } from '../core/memory/remember';
import { getPinnedEntities, pinEntity, unpinEntity } from '../core/pinning/pinning';
import type { PinnedEntity, PinResult } from '../core/pinning/pinning';
import { trackedRecall } from '../core/sessions/recallTracking';
import type { RecallResult } from '../core/recall/recallTypes';
import type { MemoryRuntime } from './runtime/memoryRuntime';

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

export async function rememberText(rt: MemoryRuntime, text: string, options: RememberOptions = {}): Promise<RememberResult> {
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
  const result = await remember(rt.store, input, rt.rememberDeps());
  if (!result.duplicate) rt.poke();
  return result;
}

export async function setEntityPinned(rt: MemoryRuntime, idOrName: string, pinned: boolean): Promise<PinResult> {
  const name = idOrName.trim();
  if (!name) throw new MemoryError('E_INVALID_INPUT', 'Name the entity to pin, for example "sqlite".');
  const nowIso = isoFromMs(systemClock.now());
  return rt.store.write(pinned ? 'pin' : 'unpin', (db) => (pinned ? pinEntity(db, AGENT_ID, name, nowIso) : unpinEntity(db, AGENT_ID, name, nowIso)));
}

export function pinnedEntities(rt: MemoryRuntime): PinnedEntity[] {
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
}

export async function recallMemories(rt: MemoryRuntime, query: string, options: RecallOptions = {}): Promise<RecallResult[]> {
  const deps = { ...rt.recallDeps(), ...(options.track === false ? { track: false } : {}) };
  const out = await trackedRecall(rt.store, {
    query,
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.session ? { session: options.session } : {}),
    ...(options.injected ? { injected: true } : {}),
  }, deps, true);
  return out.items;
}

export function storeIsEmpty(rt: MemoryRuntime): boolean {
  return rt.store.read((db) => countMemories(db)) === 0;
}

export function forget(rt: MemoryRuntime, id: string): Promise<ForgetSummary> {
  return forgetMemoryCompletely(rt.store, id.trim(), systemClock);
}
