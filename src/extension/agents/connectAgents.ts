/**
 * Memory: Connect Agents… / Memory: Disconnect Agents… (docs/agents.md, "Connecting agents"):
 * writes hooks that run the bundled CLI through the hook launcher (`<globalStorage>/bin/agent-memory-hook
 * hook --harness H --store <this extension's store>`; core/hooks/hookLauncher.ts, rewritten at
 * every activation so the hooks survive extension updates) into the hook configuration of the chosen harnesses and locations, after
 * showing exactly what each file will hold; Disconnect removes exactly the entries it wrote (the
 * record lives in the extension's global state). The merge itself is core code
 * (core/hooks/hookConfigMerge.ts).
 */
import * as vscode from 'vscode';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { MemoryError } from '../../core/errors';
import { hookCommand, hookEntries, mergeHooks, unmergeHooks } from '../../core/hooks/hookConfigMerge';
import { writeLauncher } from '../../core/hooks/hookLauncher';
import { registerSafe } from '../commands/commandUtil';
import type { Services } from '../host/services';
import { storeDirFor } from '../host/storeDir';
import { CONNECTIONS_KEY, findNode, hookTargets, readConnections } from './agentTargets';
import type { Connection, HookTarget } from './agentTargets';

const PREVIEW_SCHEME = 'agent-memory-hooks';

/** Arguments for scripted use (tests, other extensions): skip the pickers and the confirmation. */
export interface ConnectArgs {
  readonly targets?: readonly string[];
  /** Write without the modal confirmation (the preview is still opened unless `preview` is false). */
  readonly yes?: boolean;
  readonly preview?: boolean;
  /** Home folder of the user-level targets (tests use a temp folder). */
  readonly home?: string;
}

async function readText(file: string): Promise<string | undefined> {
  try { return await readFile(file, 'utf8'); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MemoryError('E_INVALID_INPUT', `Could not read ${file}: ${(e as Error).message}`, { file });
  }
}

interface Plan { readonly target: HookTarget; readonly before: string | undefined; readonly after: string; readonly connection: Connection }

export class AgentConnections {
  private readonly previews = new Map<string, string>();
  private readonly onPreview = new vscode.EventEmitter<vscode.Uri>();

  constructor(private readonly services: Services) {}

  connections(): Connection[] { return readConnections(this.services.context.globalState.get(CONNECTIONS_KEY)); }

  private async save(list: readonly Connection[]): Promise<void> { await this.services.context.globalState.update(CONNECTIONS_KEY, list); }

  /**
   * (Re)writes the hook launcher to run this version's bundled CLI with the Node.js found now;
   * called at every activation and before connecting. Undefined when no Node.js was found.
   */
  async refreshLauncher(): Promise<string | undefined> {
    const node = findNode(process.env.PATH, process.platform, process.execPath);
    if (!node) return undefined;
    const cliJs = join(this.services.context.extensionPath, 'dist', 'cli.js');
    const r = await writeLauncher(this.services.context.globalStorageUri.fsPath, { node, cliJs });
    if (r.changed) this.services.logger.info(`agent hooks: the launcher ${r.path} now runs ${cliJs} with ${node}`);
    return r.path;
  }

  /** The command every hook runs, for this extension and this store: the launcher, never the versioned install folder. */
  async command(harness: Connection['harness']): Promise<{ command: string; store: string }> {
    const launcher = await this.refreshLauncher();
    if (!launcher) throw new MemoryError('E_INVALID_INPUT', 'Agent hooks run the bundled CLI with Node.js, and no `node` was found on PATH. Install Node.js 20 or later, then connect again.');
    const store = storeDirFor(this.services.settings(), this.services.context.globalStorageUri.fsPath);
    return { command: hookCommand({ launcher, store, harness }), store };
  }

  provider(): vscode.TextDocumentContentProvider {
    return { onDidChange: this.onPreview.event, provideTextDocumentContent: (uri) => this.previews.get(uri.path) ?? '' };
  }

  async connect(args: ConnectArgs = {}): Promise<Connection[] | undefined> {
    const home = args.home ?? homedir();
    const targets = hookTargets(home, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    const connected = new Set(this.connections().map((c) => c.targetId));
    let chosen: HookTarget[];
    if (args.targets) {
      chosen = targets.filter((t) => args.targets?.includes(t.id));
      if (chosen.length !== args.targets.length) throw new MemoryError('E_INVALID_INPUT', `Unknown hook target: ${args.targets.filter((id) => !targets.some((t) => t.id === id)).join(', ')} (known: ${targets.map((t) => t.id).join(', ')}).`);
    } else {
      const picks = await vscode.window.showQuickPick(targets.map((t) => ({ label: t.label, description: connected.has(t.id) ? 'connected' : '', detail: `${t.detail} — ${t.file}`, target: t })), {
        title: 'Connect agents to Agent Memory', placeHolder: 'Agents and locations whose sessions get memories and are captured', canPickMany: true, ignoreFocusOut: true,
      });
      if (!picks?.length) return undefined;
      chosen = picks.map((p) => p.target);
    }
    const plans: Plan[] = [];
    for (const target of chosen) {
      const { command, store } = await this.command(target.harness);
      const before = await readText(target.file);
      const merged = mergeHooks(before, hookEntries(target.format, target.harness, command), target.file);
      plans.push({ target, before, after: merged.text, connection: {
        targetId: target.id, harness: target.harness, file: target.file, format: target.format, written: merged.written,
        createdFile: before === undefined, store, connectedAt: new Date().toISOString(),
      } });
    }
    if (args.preview !== false) await this.showPreview(plans);
    if (!args.yes) {
      const files = plans.map((p) => `${p.target.file} (${p.connection.written.length ? `${p.connection.written.length} hooks ${p.before === undefined ? 'in a new file' : 'added'}` : 'already connected'})`).join('\n');
      const pick = await vscode.window.showInformationMessage('Write these agent hooks?', { modal: true, detail: `${files}\n\nThe preview shows each file as it will be. Memory: Disconnect Agents… removes exactly these entries.` }, 'Write');
      if (pick !== 'Write') return undefined;
    }
    const kept = this.connections();
    const done: Connection[] = [];
    for (const p of plans) {
      if (!p.connection.written.length) continue;
      await mkdir(dirname(p.target.file), { recursive: true });
      // Re-read and merge again: the file may have changed while the preview was open.
      const now = await readText(p.target.file);
      const merged = now === p.before ? p.after : mergeHooks(now, p.connection.written, p.target.file).text;
      await writeFile(p.target.file, merged, 'utf8');
      const previous = kept.find((c) => c.targetId === p.target.id && c.file === p.target.file);
      const connection: Connection = previous ? { ...p.connection, written: [...previous.written, ...p.connection.written], createdFile: previous.createdFile } : p.connection;
      done.push(connection);
      this.services.logger.info(`agent hooks: wrote ${p.connection.written.length} entries to ${p.target.file}`);
    }
    await this.save([...kept.filter((c) => !done.some((d) => d.targetId === c.targetId && d.file === c.file)), ...done]);
    if (!args.targets) void vscode.window.showInformationMessage(done.length ? `Agent Memory hooks written to ${done.map((d) => d.file).join(', ')}.` : 'Those agents were connected already.');
    return done;
  }

  async disconnect(args: { readonly targets?: readonly string[]; readonly yes?: boolean } = {}): Promise<Connection[] | undefined> {
    const all = this.connections();
    let chosen: Connection[];
    if (args.targets) chosen = all.filter((c) => args.targets?.includes(c.targetId));
    else {
      if (!all.length) { void vscode.window.showInformationMessage('No agents are connected to Agent Memory.'); return []; }
      const picks = await vscode.window.showQuickPick(all.map((c) => ({ label: c.targetId, description: c.file, detail: `${c.written.length} hooks, connected ${c.connectedAt.slice(0, 10)}`, picked: true, c })), { title: 'Disconnect agents', canPickMany: true, ignoreFocusOut: true });
      if (!picks?.length) return undefined;
      chosen = picks.map((p) => p.c);
    }
    if (!args.yes && chosen.length) {
      const pick = await vscode.window.showWarningMessage('Remove Agent Memory\'s hooks?', { modal: true, detail: chosen.map((c) => `${c.file}: ${c.written.length} entries`).join('\n') }, 'Remove');
      if (pick !== 'Remove') return undefined;
    }
    for (const c of chosen) {
      const text = await readText(c.file);
      const un = unmergeHooks(text, c.written, c.file);
      if (text !== undefined) {
        if (un.text === undefined && c.createdFile) await rm(c.file, { force: true });
        else await writeFile(c.file, un.text ?? '{}\n', 'utf8');
      }
      this.services.logger.info(`agent hooks: removed ${un.removed} entries from ${c.file}`);
    }
    await this.save(all.filter((c) => !chosen.includes(c)));
    return chosen;
  }

  private async showPreview(plans: readonly Plan[]): Promise<void> {
    const parts = ['// What Memory: Connect Agents… will write. Each file below is shown as it will be after writing;', '// entries already in it stay as they are.', ''];
    for (const p of plans) {
      parts.push(`// ${p.target.label}: ${p.target.file}`, `// ${p.before === undefined ? 'new file' : p.connection.written.length ? `${p.connection.written.length} entries added` : 'already connected: unchanged'}`, p.after);
    }
    const path = `/hooks-preview-${Date.now()}.jsonc`;
    this.previews.set(path, parts.join('\n'));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: PREVIEW_SCHEME, path }));
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
  }

  dispose(): void { this.onPreview.dispose(); this.previews.clear(); }
}

export function registerAgentConnections(context: vscode.ExtensionContext, services: Services): AgentConnections {
  const agents = new AgentConnections(services);
  // Hooks written before name the launcher: point it at this version's CLI (cheap; off the activation path).
  void agents.refreshLauncher().catch((e: unknown) => services.logger.warn(`agent hooks: could not write the hook launcher: ${e instanceof Error ? e.message : String(e)}`));
  context.subscriptions.push(agents, vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, agents.provider()));
  registerSafe(context, services, 'agentMemory.connectAgents', 'Connect Agents', (args?: ConnectArgs) => agents.connect(args));
  registerSafe(context, services, 'agentMemory.disconnectAgents', 'Disconnect Agents', (args?: { targets?: string[]; yes?: boolean }) => agents.disconnect(args));
  return agents;
}
