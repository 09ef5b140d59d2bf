/**
 * Team memory in VS Code (docs/team.md): the commands Connect Team Memory…, Share with Team, Stop
 * Sharing, Sync Now and Disconnect; a status bar item with the team state; the live TeamSync of the
 * open store; the `agentMemory.team.sharedProjects` setting mirrored into the store.
 *
 * The password goes to VS Code's SecretStorage only (never settings, logs or messages), through
 * the host context's SecretStore, and reaches the core through TeamSyncDeps.password.
 */
import * as vscode from 'vscode';
import { DEFAULT_REDACTION_CONFIG } from '../../core/config/redactionConfig';
import { resolveTeamConfig } from '../../core/config/teamConfig';
import { MemoryError, userMessage } from '../../core/errors';
import { connectStore, disconnectStore, shareMemoryWithTeam, shareProject, stopSharingMemory } from '../../core/team/teamAdmin';
import { parseConnectionString } from '../../core/team/teamConnection';
import { teamPasswordFrom, teamPasswordSecretKey } from '../../core/team/teamSecret';
import { readTeamState } from '../../core/team/teamState';
import { TeamSync } from '../../core/team/teamSync';
import type { TeamStatus } from '../../core/team/teamSync';
import { inform, registerSafe } from '../commands/commandUtil';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import type { Services } from '../host/services';
import { mirrorSharedProjects, sharedProjectsFrom } from './sharedProjectsSetting';
import { describeTeam, memoryIdOf, teamBarText } from './teamStatusText';

const SHARED_PROJECTS_SETTING = 'team.sharedProjects';

let activeController: TeamController | undefined;

/** One line for `@memory /status` and Show Status (undefined when team memory is off). */
export function teamStatusLine(): string | undefined {
  const s = activeController?.status();
  return s ? describeTeam(s) : undefined;
}

class TeamController implements vscode.Disposable {
  private sync: TeamSync | undefined;
  private syncStore: MemoryEngine['store'] | undefined;
  private readonly item: vscode.StatusBarItem;
  private statusSub: { dispose(): void } | undefined;

  constructor(private readonly services: Services) {
    this.item = vscode.window.createStatusBarItem('agentMemory.team', vscode.StatusBarAlignment.Right, 99);
    this.item.name = 'Agent Memory Team';
    this.item.command = 'agentMemory.team.syncNow';
  }

  status(): TeamStatus | undefined {
    try { return this.sync?.status(); } catch { return undefined; }
  }

  /** (Re)builds the live sync for the runtime's store when it holds a connection. */
  async attach(rt: MemoryEngine): Promise<void> {
    await this.mirrorSetting(rt, undefined);
    const { connectionString } = rt.store.read((db) => readTeamState(db));
    if (this.syncStore === rt.store && this.sync) return;
    await this.detach();
    if (!connectionString) { this.render(undefined); return; }
    const settings = this.services.settings();
    const sync = new TeamSync({
      store: rt.store, clock: this.services.host.clock, logger: this.services.logger, config: resolveTeamConfig(settings.team),
      redaction: DEFAULT_REDACTION_CONFIG, jobs: settings.jobs, embeddingModelId: rt.embedder?.id, extract: settings.graphEnabled,
      password: teamPasswordFrom(this.services.secrets, connectionString),
    });
    this.sync = sync;
    this.syncStore = rt.store;
    this.statusSub = sync.onDidChangeStatus((s) => this.render(s));
    sync.start();
    this.render(sync.status());
  }

  async detach(): Promise<void> {
    this.statusSub?.dispose();
    this.statusSub = undefined;
    const sync = this.sync;
    this.sync = undefined;
    this.syncStore = undefined;
    await sync?.stop();
  }

  /** The setting lists shared projects: added ones are shared; on a change, removed ones stop. */
  async mirrorSetting(rt: MemoryEngine, previous: readonly string[] | undefined): Promise<void> {
    await mirrorSharedProjects(rt.store, this.settingProjects(), previous);
  }

  settingProjects(): string[] {
    return sharedProjectsFrom(vscode.workspace.getConfiguration('agentMemory').get<unknown>(SHARED_PROJECTS_SETTING));
  }

  render(s: TeamStatus | undefined): void {
    const text = teamBarText(s);
    if (!s || !text) { this.item.hide(); return; }
    this.item.text = text;
    this.item.tooltip = `${describeTeam(s)} Click to sync now.`;
    this.item.show();
  }

  async connect(rt: MemoryEngine): Promise<void> {
    const url = await vscode.window.showInputBox({
      title: 'Connect Team Memory', prompt: 'PostgreSQL connection string without the password (your role, host, port, database; add ?sslmode=require for TLS)',
      placeHolder: 'postgresql://alice@db.example.com:5432/team', ignoreFocusOut: true,
      validateInput: (v) => { try { parseConnectionString(v); return undefined; } catch (e) { return userMessage(e); } },
    });
    if (!url) throw new MemoryError('E_CANCELLED', 'cancelled');
    const password = await vscode.window.showInputBox({ title: 'Connect Team Memory', prompt: `Password of role ${parseConnectionString(url).user} (kept in VS Code's secret storage)`, password: true, ignoreFocusOut: true });
    if (password === undefined) throw new MemoryError('E_CANCELLED', 'cancelled');
    const r = await connectStore(rt.store, url, password);
    await this.services.secrets.set(teamPasswordSecretKey(url), password);
    await this.detach();
    await this.attach(rt);
    const project = vscode.workspace.name;
    const shared = rt.store.read((db) => readTeamState(db).sharedProjects);
    if (project && !shared.includes(project)) {
      const pick = await vscode.window.showInformationMessage(`Connected to ${r.server}. Share the memories of project "${project}" with the team?`, 'Share Project', 'Not Now');
      if (pick === 'Share Project') {
        const cfg = vscode.workspace.getConfiguration('agentMemory');
        await cfg.update(SHARED_PROJECTS_SETTING, [...new Set([...this.settingProjects(), project])], vscode.ConfigurationTarget.Global);
        await shareProject(rt.store, project, true);
        await this.sync?.syncOnce();
      }
    } else {
      inform(`Connected to ${r.server}.`);
    }
  }

  async disconnect(rt: MemoryEngine): Promise<void> {
    const { connectionString } = rt.store.read((db) => readTeamState(db));
    await this.detach();
    await disconnectStore(rt.store);
    if (connectionString) await this.services.secrets.delete(teamPasswordSecretKey(connectionString));
    this.render(undefined);
    inform('Team memory disconnected; your memories and the team\'s replicated memories stay in this store.');
  }

  async syncNow(): Promise<void> {
    if (!this.sync) throw new MemoryError('E_TEAM_NOT_CONNECTED', 'Team memory is not connected: run Memory: Connect Team Memory… first.');
    const r = await this.sync.syncOnce();
    inform(`Team sync: pushed ${r.push.sent}, pulled ${r.pull.inserted} new, ${r.pull.updated} updated, ${r.pull.forgotten} removed.`);
  }

  dispose(): void {
    this.item.dispose();
    void this.detach();
  }
}

export function registerTeamMemory(context: vscode.ExtensionContext, services: Services): void {
  const controller = new TeamController(services);
  activeController = controller;
  context.subscriptions.push(controller, { dispose: () => { if (activeController === controller) activeController = undefined; } });
  context.subscriptions.push(services.onDidOpenRuntime((rt) => {
    void controller.detach().then(() => controller.attach(rt)).catch((e: unknown) => services.logger.warn(`team memory: ${userMessage(e)}`));
  }));
  let lastSetting = controller.settingProjects();
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    // The replica mode changes what a pull takes: the live sync is rebuilt on the new settings.
    if (e.affectsConfiguration('agentMemory.team.replica')) {
      const rt = services.current();
      if (rt) void controller.detach().then(() => controller.attach(rt)).catch((e2: unknown) => services.logger.warn(`team memory: ${userMessage(e2)}`));
    }
    if (!e.affectsConfiguration(`agentMemory.${SHARED_PROJECTS_SETTING}`)) return;
    const previous = lastSetting;
    lastSetting = controller.settingProjects();
    const rt = services.current();
    if (rt) void controller.mirrorSetting(rt, previous).catch((e2: unknown) => services.logger.warn(`team memory: ${userMessage(e2)}`));
  }));
  registerSafe(context, services, 'agentMemory.team.connect', 'Connect Team Memory', async () => controller.connect(await services.runtime()));
  registerSafe(context, services, 'agentMemory.team.disconnect', 'Disconnect Team Memory', async () => controller.disconnect(await services.runtime()));
  registerSafe(context, services, 'agentMemory.team.syncNow', 'Sync Team Memory', async () => { await services.runtime(); await controller.syncNow(); });
  const askId = async (arg: unknown, title: string): Promise<string> => {
    const id = memoryIdOf(arg) ?? await vscode.window.showInputBox({ title, prompt: 'Memory id', ignoreFocusOut: true });
    if (!id) throw new MemoryError('E_CANCELLED', 'cancelled');
    return id.trim();
  };
  registerSafe(context, services, 'agentMemory.team.share', 'Share with Team', async (arg: unknown) => {
    const rt = await services.runtime();
    await shareMemoryWithTeam(rt.store, await askId(arg, 'Share with Team'), services.host.clock);
    inform('Shared with the team (sent at the next sync).');
  });
  registerSafe(context, services, 'agentMemory.team.stopSharing', 'Stop Sharing', async (arg: unknown) => {
    const rt = await services.runtime();
    await stopSharingMemory(rt.store, await askId(arg, 'Stop Sharing'), services.host.clock);
    inform('Stopped sharing: teammates\' copies are removed at the next sync; yours stays.');
  });
}
