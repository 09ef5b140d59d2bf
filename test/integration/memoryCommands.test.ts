import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import type { GraphNode } from '../../src/extension/tree/graphTreeData';
import type { IngestResult } from '../../src/core/ingest/jsonlIngest';
import type { UrlIngestResult } from '../../src/core/ingest/urlIngest';
import type { MaintenanceReport } from '../../src/core/maintenance/maintenanceTypes';
import type { RememberResult } from '../../src/core/memory/remember';
import type { RecallResult } from '../../src/core/recall/recallTypes';
import { memoryApi, restoreDefaultStore, setSetting, tempFolder, useFreshStore, waitForEntity } from './memoryTestKit';
import { waitFor } from './waitFor';

const SELECTED = 'We decided to use Redis to cache each reading list page; the API paginates with opaque cursors.';

describe('Memory commands and the graph tree', () => {
  let api: AgentMemoryApi;

  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'commands');
  });

  after(async () => {
    await restoreDefaultStore();
  });

  it('lists every Memory command in the command registry', async () => {
    console.log(`[integration] Agent Memory activate() took ${api.activationMs} ms (store opened lazily)`);
    const all = await vscode.commands.getCommands(true);
    for (const id of ['rememberSelection', 'recall', 'pinEntity', 'unpinEntity', 'forgetMemory', 'runMaintenance', 'exportMemories', 'importMemories', 'rememberUrl', 'downloadEmbeddingModel', 'showStatus', 'showLogs']) {
      assert.ok(all.includes(`agentMemory.${id}`), `agentMemory.${id} is not registered`);
    }
  });

  it('Remember Selection stores the selected text of the active editor', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: `# Notes\n\n${SELECTED}\n` });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(2, 0, 2, SELECTED.length);
    const r = await vscode.commands.executeCommand<RememberResult | undefined>('agentMemory.rememberSelection');
    assert.ok(r, 'the command returned a result');
    assert.equal(r.duplicate, false);
    const stored = api.services.current()?.store.read((db) => db.get<{ content: string; source_type: string }>('SELECT content, source_type FROM memories WHERE id = ?', [r.id]));
    assert.equal(stored?.content, SELECTED);
    assert.equal(stored?.source_type, 'editor-selection');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Recall returns the remembered selection (without the quick pick when asked)', async () => {
    // "work" is no keyword of the memory, so the two-term query finds it through its vector: wait for
    // the background embed job instead of racing it.
    await waitFor('the remembered selection to be embedded', () => api.services.current()?.store.read((db) => db.get<{ ok: number }>(
      'SELECT 1 AS ok FROM memories m JOIN embeddings e ON e.source_id = m.id WHERE m.content = ?', [SELECTED])?.ok), 30_000, 100);
    const results = await vscode.commands.executeCommand<RecallResult[] | undefined>('agentMemory.recall', 'how does pagination work', { showPicker: false });
    assert.ok(results && results.length > 0, 'recall found something');
    assert.match(results[0]?.content ?? '', /opaque cursors/);
  });

  it('Pin Entity and Unpin Entity change the pin, and the tree shows a Pinned section with it', async () => {
    const id = await waitForEntity(api, 'redis');
    assert.equal(await vscode.commands.executeCommand('agentMemory.pinEntity', 'redis'), true);
    const pinnedChildren = await waitFor('the Pinned section to list redis', async () => {
      const roots = await api.graphTree.getChildren();
      const pinned = roots[0];
      if (pinned?.kind !== 'section' || pinned.label !== 'Pinned') return undefined;
      const children = await api.graphTree.getChildren(pinned);
      return children.some((c) => c.kind === 'entity' && c.entityId === id) ? children : undefined;
    });
    const pinnedSection = (await api.graphTree.getChildren())[0];
    assert.ok(pinnedSection);
    assert.equal(api.graphTree.getTreeItem(pinnedSection).collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'the Pinned section opens expanded once it holds pins');
    const node = pinnedChildren.find((c): c is Extract<GraphNode, { kind: 'entity' }> => c.kind === 'entity' && c.entityId === id);
    assert.ok(node);
    assert.equal(api.graphTree.getTreeItem(node).contextValue, 'entity.pinned', 'the inline unpin menu shows on pinned entities');

    assert.equal(await vscode.commands.executeCommand('agentMemory.unpinEntity', { entityId: id }), false);
    const roots = await api.graphTree.getChildren();
    const pinned = roots[0];
    assert.ok(pinned?.kind === 'section' && pinned.entities.length === 0, 'the Pinned section is empty after unpinning');
  });

  it('expands an entity into aspects and attributes', async () => {
    const id = await waitForEntity(api, 'redis');
    const roots = await api.graphTree.getChildren();
    const section = roots.find((r) => r.kind === 'section' && r.entities.some((e) => e.id === id) && !r.id.startsWith('pinned'));
    assert.ok(section);
    const entity = (await api.graphTree.getChildren(section)).find((c) => c.kind === 'entity' && c.entityId === id);
    assert.ok(entity);
    assert.match(entity.description, /mention/);
    const aspect = await waitFor('the decisions aspect of redis', async () => (await api.graphTree.getChildren(entity)).find((c) => c.kind === 'aspect'));
    assert.match(aspect.description, /weight \d\.\d\d/);
    const attributes = await api.graphTree.getChildren(aspect);
    assert.ok(attributes.some((a) => a.kind === 'attribute' && /Redis to cache/.test(a.label)), JSON.stringify(attributes));
  });

  it('Run Maintenance with "all" runs every task and returns a summary', async () => {
    const report = await vscode.commands.executeCommand<MaintenanceReport | undefined>('agentMemory.runMaintenance', 'all');
    assert.ok(report, 'maintenance returned a report');
    assert.ok(report.tasks.length >= 3, `tasks: ${report.tasks.map((t) => t.task).join(', ')}`);
    for (const t of report.tasks) assert.notEqual(t.status, 'failed', `${t.task} failed: ${t.error ?? ''}`);
  });

  it('Show Status opens a rendered, read-only status with the feedback statistics, never an untitled document', async () => {
    const untitledBefore = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const text = await vscode.commands.executeCommand<string | undefined>('agentMemory.showStatus');
    assert.match(text ?? '', /^# Agent Memory status\n\n- Memories: \d+\n/);
    assert.match(text ?? '', /\n## Aspect weights \(feedback\)\n/);
    assert.match(text ?? '', /\n## Feedback loop \(this window\)\n/);
    assert.match(text ?? '', /\n## Entity health /);
    // A titled tab of its own (documentPanels.ts), not a Markdown preview of a virtual file.
    const tab = await waitFor('the "Memory Status" tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && /agentMemory\.document/.test(t.input.viewType)), 15_000, 100);
    assert.equal(tab.label, 'Memory Status');
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, untitledBefore, 'no untitled document was opened');
    assert.equal(vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'agent-memory' && /status/.test(d.uri.path)), false, 'no status text document');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('exports to JSONL and Markdown and imports both back as duplicates', async () => {
    const dir = tempFolder('export');
    for (const file of ['memories.jsonl', 'memories.md']) {
      const target = vscode.Uri.file(join(dir, file));
      const count = await vscode.commands.executeCommand<number | undefined>('agentMemory.exportMemories', target);
      assert.equal(count, 1);
      assert.match(readFileSync(target.fsPath, 'utf8'), /opaque cursors/);
      const r = await vscode.commands.executeCommand<IngestResult | undefined>('agentMemory.importMemories', target);
      assert.deepEqual({ ingested: r?.ingested, duplicates: r?.duplicates }, { ingested: 0, duplicates: 1 }, file);
    }
  });

  it('Remember Web Page fetches a page (loopback allowed by the setting) and remembers its text', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Shelf runbook</title></head><body><p>Restart the shelf worker with systemctl restart shelf-worker.</p></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/runbook`;
      assert.equal(await vscode.commands.executeCommand('agentMemory.rememberUrl', url), undefined, 'loopback is refused by default');
      await setSetting('fetch.allowPrivateAddresses', true);
      await waitFor('the fetch setting to apply', () => (api.services.settings().fetch.allowPrivateAddresses ? true : undefined));
      const r = await vscode.commands.executeCommand<UrlIngestResult | undefined>('agentMemory.rememberUrl', url);
      assert.equal(r?.title, 'Shelf runbook');
      const stored = api.services.current()?.store.read((db) => db.get<{ content: string }>('SELECT content FROM memories WHERE id = ?', [r?.id ?? '']));
      assert.match(stored?.content ?? '', /systemctl restart shelf-worker/);
    } finally {
      await setSetting('fetch.allowPrivateAddresses', undefined);
      server.close();
    }
  });

  it('a failing command reports a clear message and resolves to undefined', async () => {
    const r = await vscode.commands.executeCommand('agentMemory.importMemories', vscode.Uri.file(join(tmpdir(), 'does-not-exist.jsonl')));
    assert.equal(r, undefined);
  });
});
