import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ImportReport } from '../../src/core/capture/transcriptImport';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { memoryApi, restoreDefaultStore, setSetting, tempFolder, useFreshStore } from './memoryTestKit';
import { waitFor } from './waitFor';

function transcript(sessionId: string, decision: string): string {
  return [
    { role: 'user', content: 'Which queue should the import worker use?', sessionId, project: 'shelf' },
    { role: 'assistant', content: decision, sessionId },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

function memoryCount(api: AgentMemoryApi, needle: string): number {
  return api.services.current()?.store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE content LIKE ?', [`%${needle}%`])?.n ?? 0) ?? 0;
}

describe('capture from other agents (transcripts)', () => {
  let api: AgentMemoryApi;
  let dir: string;

  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'capture');
    dir = tempFolder('transcripts');
  });

  after(async () => {
    // Stop watching before the folders go (restoreDefaultStore removes them).
    await setSetting('capture.importFolder', undefined);
    await restoreDefaultStore();
  });

  it('Import Transcript turns a generic JSONL transcript into memories and an ended session, once', async () => {
    const file = join(dir, 'manual.jsonl');
    writeFileSync(file, transcript('manual-1', 'We decided that the import worker uses the Redis stream queue, not RabbitMQ.'));
    const report = await vscode.commands.executeCommand<ImportReport | undefined>('agentMemory.importTranscript', vscode.Uri.file(file));
    assert.ok(report, 'the import returned a report');
    assert.equal(report.format, 'jsonl');
    assert.equal(report.turns, 2);
    assert.ok(report.memoriesCreated >= 1, JSON.stringify(report));
    assert.ok(memoryCount(api, 'Redis stream queue') >= 1);
    const again = await vscode.commands.executeCommand<ImportReport | undefined>('agentMemory.importTranscript', vscode.Uri.file(file));
    assert.equal(again?.memoriesCreated, 0, 'importing the same transcript again adds nothing');
    const session = api.services.current()?.store.read((db) => db.get<{ status: string }>('SELECT status FROM sessions WHERE session_key = ?', [report.sessionKey]));
    assert.equal(session?.status, 'ended');
  });

  it('Import Memories recognises a transcript JSONL and imports it as one', async () => {
    const file = join(dir, 'via-import-memories.jsonl');
    writeFileSync(file, transcript('manual-2', 'We decided that thumbnails are rendered by a separate worker pool.'));
    const report = await vscode.commands.executeCommand<ImportReport | undefined>('agentMemory.importMemories', vscode.Uri.file(file));
    assert.equal(report?.format, 'jsonl');
    assert.ok(memoryCount(api, 'separate worker pool') >= 1);
  });

  it('the watched import folder imports transcripts already there when it is turned on', async () => {
    const folder = tempFolder('watched');
    writeFileSync(join(folder, 'session.jsonl'), transcript('watched-1', 'We decided that the watched folder importer keeps a ledger per file.'));
    await setSetting('capture.importFolder', folder);
    await waitFor('the watched transcript to be imported', () => (memoryCount(api, 'ledger per file') > 0 ? true : undefined), 30_000, 200);
  });
});
