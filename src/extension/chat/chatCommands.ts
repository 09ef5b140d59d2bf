/**
 * @memory slash commands that write or report: /remember, /forget, /pin, /unpin, /status, and
 * the first-run answer for an empty store.
 */
import * as vscode from 'vscode';
import { getMemory } from '../../core/memory/memoryRecords';
import { forget, rememberText, setEntityPinned } from '../actions/memoryActions';
import { memoryUri } from '../documents/memoryDocuments';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import { formatStatusMarkdown } from '../status/statusText';
import { agentActivity } from '../../core/capture/agentCapture';
import { capturedTodayLine } from '../agents/agentStatusText';
import { teamStatusLine } from '../team/teamMemory';
import type { Services } from '../host/services';
import type { ChatOutput } from './chatOutput';
import { escapeMarkdown, snippet } from './recallFormat';

export function firstRunAnswer(out: ChatOutput): void {
  out.markdown([
    '**Memory is empty so far**, so there is nothing to recall yet.\n\n',
    'Agent Memory keeps what you and your agents learn about this project, on this machine:\n\n',
    '- `@memory /remember we deploy with pnpm and Docker` stores a fact right now;\n',
    '- agents in agent mode can call the **memory_remember** tool;\n',
    '- **Memory: Remember Selection** (editor context menu) keeps selected text;\n',
    '- **Memory: Import Memories** loads a JSONL or Markdown export.\n\n',
    'Then ask me anything, for example `@memory which database do we use?`, or use `/recall`, `/why` and `/status`.',
  ].join(''));
}

export async function rememberFromChat(rt: MemoryEngine, out: ChatOutput, text: string, sessionKey: string | undefined): Promise<string | undefined> {
  if (!text.trim()) {
    out.markdown('Tell me what to remember, for example `/remember the API uses cursor pagination`.');
    return undefined;
  }
  const r = await rememberText(rt, text, { sourceType: 'vscode-chat', ...(sessionKey ? { sessionKey } : {}), ...(vscode.workspace.name ? { project: vscode.workspace.name } : {}) });
  out.reference(memoryUri(r.id));
  if (r.duplicate) out.markdown(`I already remember that (memory \`${r.id}\`), so nothing was added.`);
  else out.markdown(`Remembered${r.chunkIds.length > 1 ? ` in ${r.chunkIds.length} parts` : ''} (memory \`${r.id}\`). It is searchable by keyword now; its meaning and graph links are added in the background.`);
  if (r.redacted.length) out.markdown(`\n\nSecrets were removed before storing (${r.redacted.join(', ')}).`);
  return r.id;
}

export async function forgetFromChat(rt: MemoryEngine, out: ChatOutput, arg: string): Promise<void> {
  const id = arg.trim();
  if (!id) {
    out.markdown('Give the id of the memory to forget (it is shown in `/recall` results and references), for example `/forget 3f2a…`.');
    return;
  }
  const existing = rt.store.read((db) => getMemory(db, id));
  if (!existing) {
    out.markdown(`There is no memory with id \`${escapeMarkdown(id)}\`. Use \`/recall\` to find it, then forget it by id.`);
    return;
  }
  const summary = await forget(rt, id);
  out.markdown(`Forgot "${escapeMarkdown(snippet(existing.content, 120))}" with its vectors, hints and graph traces (${summary.mentionsRemoved} mentions, ${summary.attributesRemoved} attributes, ${summary.entitiesRemoved} entities removed).`);
}

export async function pinFromChat(rt: MemoryEngine, out: ChatOutput, arg: string, pinned: boolean): Promise<void> {
  if (!arg.trim()) {
    out.markdown(`Name the entity to ${pinned ? 'pin' : 'unpin'}, for example \`/${pinned ? 'pin' : 'unpin'} sqlite\`.`);
    return;
  }
  const r = await setEntityPinned(rt, arg, pinned);
  if (!r.changed) out.markdown(`**${escapeMarkdown(r.name)}** was already ${pinned ? 'pinned' : 'not pinned'}.`);
  else if (pinned) out.markdown(`Pinned **${escapeMarkdown(r.name)}**: it is now always focal in recall and at session start.`);
  else out.markdown(`Unpinned **${escapeMarkdown(r.name)}**.`);
}

export function statusFromChat(services: Services, rt: MemoryEngine, out: ChatOutput): void {
  out.markdown(formatStatusMarkdown(rt.status(), services.llmChoice().description, services.captureEnabled()));
  const team = teamStatusLine();
  if (team) out.markdown(`\n\n${team}`);
  out.markdown(`\n\n${capturedTodayLine(rt.store.read((db) => agentActivity(db, services.host.clock.now())))}`);
}
