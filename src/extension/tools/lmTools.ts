/**
 * Language model tools (contributes.languageModelTools): memory_recall, memory_remember and
 * memory_pin, so agent mode and any participant can use memory. The writing tools ask for
 * confirmation (agentMemory.tools.confirmWrites); every call is captured into the window's tool
 * session (recall results tracked for the feedback loop), and the first call of a session returns
 * that session's start memories after its own answer, marked as such.
 */
import * as vscode from 'vscode';
import { MemoryError, userMessage } from '../../core/errors';
import { recallMemories, rememberText, setEntityPinned } from '../actions/memoryActions';
import { SessionCapture } from '../chat/sessionCapture';
import { snippet, toolResultText } from '../chat/recallFormat';
import { sessionStartToolText } from '../chat/sessionStartContext';
import { pinConfirmation, rememberConfirmation } from './lmToolText';
import type { ToolConfirmation } from './lmToolText';
import type { Services } from '../host/services';

export const TOOL_NAMES = { recall: 'memory_recall', remember: 'memory_remember', pin: 'memory_pin' } as const;
/** Most results one memory_recall call returns. */
export const TOOL_MAX_RESULTS = 20;

export interface RecallToolInput { readonly query: string; readonly limit?: number }
export interface RememberToolInput { readonly content: string; readonly type?: string }
export interface PinToolInput { readonly entity: string; readonly pinned?: boolean }

/** Markdown built from untrusted text: no command links, no HTML, no theme icons. */
function untrustedMarkdown(value: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(value, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** The dialog a writing tool shows, when the setting asks for one. */
function confirmationMessages(c: ToolConfirmation | undefined): { confirmationMessages?: vscode.LanguageModelToolConfirmationMessages } {
  return c ? { confirmationMessages: { title: c.title, message: untrustedMarkdown(c.markdown) } } : {};
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function requireString(v: unknown, name: string): string {
  if (typeof v !== 'string' || !v.trim()) throw new MemoryError('E_INVALID_INPUT', `The "${name}" input must be a non-empty string.`);
  return v;
}

/** Errors go back to the model as text, so it can correct itself; never a stack trace. */
async function guarded(services: Services, tool: string, fn: () => Promise<string>): Promise<vscode.LanguageModelToolResult> {
  try {
    return textResult(await fn());
  } catch (e) {
    services.logger.warn(`${tool}: ${userMessage(e)}`);
    return textResult(`Error: ${userMessage(e)}`);
  }
}

export function createTools(services: Services): { recall: vscode.LanguageModelTool<RecallToolInput>; remember: vscode.LanguageModelTool<RememberToolInput>; pin: vscode.LanguageModelTool<PinToolInput> } {
  const capture = new SessionCapture(services);
  const recall: vscode.LanguageModelTool<RecallToolInput> = {
    prepareInvocation: (options) => ({ invocationMessage: `Recalling memories about "${snippet(String(options.input.query ?? ''), 60)}"` }),
    invoke: (options) => guarded(services, TOOL_NAMES.recall, async () => {
      const query = requireString(options.input.query, 'query');
      const limit = typeof options.input.limit === 'number' ? Math.min(TOOL_MAX_RESULTS, Math.max(1, Math.round(options.input.limit))) : undefined;
      const rt = await services.runtime();
      const session = await capture.toolSession(rt);
      const results = await recallMemories(rt, query, { ...(limit ? { limit } : {}), ...(session ? { session: session.key, injected: true } : {}) });
      await capture.turn(rt, session?.key, 'tool', `${TOOL_NAMES.recall}(${query}) → ${results.length} memories`);
      return toolResultText(query, results) + sessionStartToolText(session?.startMemories ?? []);
    }),
  };
  const remember: vscode.LanguageModelTool<RememberToolInput> = {
    prepareInvocation: (options) => ({
      invocationMessage: 'Remembering…',
      // The text as it will be stored (redacted), whole and literal: see lmToolText.ts.
      ...confirmationMessages(rememberConfirmation(services.settings().confirmToolWrites, options.input)),
    }),
    invoke: (options) => guarded(services, TOOL_NAMES.remember, async () => {
      const content = requireString(options.input.content, 'content');
      if (!services.trustGates().toolWrites) throw new MemoryError('E_USAGE', 'Agent Memory does not capture from agents in an untrusted workspace; trust the workspace first.');
      const rt = await services.runtime();
      const session = await capture.toolSession(rt);
      const r = await rememberText(rt, content, { sourceType: 'vscode-lm-tool', ...(typeof options.input.type === 'string' && options.input.type ? { type: options.input.type } : {}), ...(session ? { sessionKey: session.key } : {}), ...(vscode.workspace.name ? { project: vscode.workspace.name } : {}) });
      await capture.turn(rt, session?.key, 'tool', `${TOOL_NAMES.remember}: ${snippet(content, 200)}`);
      return (r.duplicate ? `Already remembered as ${r.id}; nothing added.` : `Remembered as ${r.id}.`) + sessionStartToolText(session?.startMemories ?? []);
    }),
  };
  const pin: vscode.LanguageModelTool<PinToolInput> = {
    prepareInvocation: (options) => {
      const verb = options.input.pinned === false ? 'Unpin' : 'Pin';
      return {
        invocationMessage: `${verb}ning ${String(options.input.entity ?? '')}`,
        ...confirmationMessages(pinConfirmation(services.settings().confirmToolWrites, options.input)),
      };
    },
    invoke: (options) => guarded(services, TOOL_NAMES.pin, async () => {
      const entity = requireString(options.input.entity, 'entity');
      const pinned = options.input.pinned !== false;
      const rt = await services.runtime();
      const session = await capture.toolSession(rt);
      const r = await setEntityPinned(rt, entity, pinned);
      await capture.turn(rt, session?.key, 'tool', `${TOOL_NAMES.pin}: ${pinned ? 'pin' : 'unpin'} ${r.name}`);
      return (r.changed ? `${pinned ? 'Pinned' : 'Unpinned'} ${r.name}.` : `${r.name} was already ${pinned ? 'pinned' : 'unpinned'}.`) + sessionStartToolText(session?.startMemories ?? []);
    }),
  };
  return { recall, remember, pin };
}

export function registerTools(context: vscode.ExtensionContext, services: Services): ReturnType<typeof createTools> {
  const tools = createTools(services);
  context.subscriptions.push(
    vscode.lm.registerTool(TOOL_NAMES.recall, tools.recall),
    vscode.lm.registerTool(TOOL_NAMES.remember, tools.remember),
    vscode.lm.registerTool(TOOL_NAMES.pin, tools.pin),
  );
  return tools;
}
