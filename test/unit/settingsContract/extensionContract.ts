/**
 * Settings only the extension acts on, through the vscode-free logic it calls: the store folder
 * (host/storeDir.ts, and the CLI's `store.path`), the capture gate (host/trustGates.ts), the
 * import folder (capture/importFolderPlan.ts, on an engine), tool write confirmations
 * (tools/lmToolText.ts) and the shared-projects mirror (team/sharedProjectsSetting.ts).
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import type { MemorySettings } from '../../../src/core/config/memorySettings';
import { createRecordingLogger } from '../../../src/core/logger';
import { readTeamState } from '../../../src/core/team/teamState';
import { createImportFolderWatcher, importFolderTarget } from '../../../src/extension/capture/importFolderPlan';
import { storeDirFor } from '../../../src/extension/host/storeDir';
import { trustGates } from '../../../src/extension/host/trustGates';
import { mirrorSharedProjects } from '../../../src/extension/team/sharedProjectsSetting';
import { pinConfirmation, rememberConfirmation } from '../../../src/extension/tools/lmToolText';
import { openTestStore } from '../feedback/graphFixture';
import { engineOnStore } from '../helpers/testEngine';
import { makeTempDir } from '../helpers/tempDir';
import { settingContract } from './contractRegistry';

const settingsOf = (values: Record<string, unknown>): MemorySettings => readMemorySettings((k) => values[k]);
const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transcripts');

describe('settings contract: extension host', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir('am-contract-ext-'); });
  afterEach(() => temp.cleanup());

  settingContract('store.path', 'is the folder the extension and the CLI open the store in', async () => {
    const global = join(temp.dir, 'global');
    assert.equal(storeDirFor(settingsOf({}), global), join(global, 'store'));
    assert.equal(storeDirFor(settingsOf({ 'store.path': join(temp.dir, 'mine') }), global), join(temp.dir, 'mine'));
    // --store and AGENT_MEMORY_STORE come first (openCliStore.ts): clear the variable for this test.
    const saved = process.env.AGENT_MEMORY_STORE;
    delete process.env.AGENT_MEMORY_STORE;
    after(() => { if (saved !== undefined) process.env.AGENT_MEMORY_STORE = saved; });
    const out: string[] = [];
    const io = { stdout: (s: string) => { out.push(s); }, stderr: (s: string) => { out.push(s); } };
    assert.equal(await runCli(['--set', `store.path=${join(temp.dir, 'cli-store')}`, 'remember', '--no-wait', 'We deploy with Helm.'], io), 0, out.join(''));
    assert.ok(existsSync(join(temp.dir, 'cli-store')), 'the CLI wrote the store where store.path says');
  });

  settingContract('capture.enabled', 'off, nothing is captured (no session, tool call or import folder), even in a trusted workspace', async () => {
    const gate = (values: Record<string, unknown>): boolean => {
      const s = settingsOf(values);
      return trustGates({ trusted: true, captureEnabled: s.captureEnabled, llmProvider: s.llm.provider }).capture;
    };
    assert.deepEqual([gate({}), gate({ 'capture.enabled': false })], [true, false]);
    const { store, clock } = await openTestStore();
    try {
      const values = { 'capture.importFolder': temp.dir };
      const engine = engineOnStore(store, clock, values);
      assert.ok(importFolderTarget(settingsOf(values), gate(values), engine));
      assert.equal(importFolderTarget(settingsOf({ ...values, 'capture.enabled': false }), gate({ ...values, 'capture.enabled': false }), engine), undefined);
    } finally {
      await store.close();
    }
  });

  settingContract('capture.importFolder', 'transcripts in the folder it names are imported into the store', async () => {
    const { store, clock } = await openTestStore();
    try {
      copyFileSync(join(FIXTURES, 'claude-session.jsonl'), join(temp.dir, 'a.jsonl'));
      const engine = engineOnStore(store, clock);
      assert.equal(importFolderTarget(settingsOf({}), true, engine), undefined, 'off by default');
      const settings = settingsOf({ 'capture.importFolder': temp.dir });
      const target = importFolderTarget(settings, true, engine);
      assert.equal(target?.folder, temp.dir);
      const watcher = createImportFolderWatcher(target as NonNullable<typeof target>, settings, () => ({ dispose: () => undefined }), createRecordingLogger());
      try {
        await watcher.start();
        await watcher.flush();
      } finally {
        watcher.dispose();
      }
      assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions'))?.n, 1);
    } finally {
      await store.close();
    }
  });

  settingContract('tools.confirmWrites', 'off, memory_remember and memory_pin write without a confirmation dialog', () => {
    const input = { content: 'We deploy with Helm.', entity: 'Helm' };
    assert.equal(rememberConfirmation(settingsOf({}).confirmToolWrites, input)?.title, 'Remember this?');
    assert.equal(pinConfirmation(settingsOf({}).confirmToolWrites, input)?.title, 'Pin an entity?');
    assert.equal(rememberConfirmation(settingsOf({ 'tools.confirmWrites': false }).confirmToolWrites, input), undefined);
    assert.equal(pinConfirmation(settingsOf({ 'tools.confirmWrites': false }).confirmToolWrites, input), undefined);
  });

  settingContract('team.sharedProjects', 'the projects it lists are shared with the team; removing one stops sharing it', async () => {
    const { store } = await openTestStore();
    try {
      const shared = (): readonly string[] => store.read((db) => readTeamState(db).sharedProjects);
      await mirrorSharedProjects(store, settingsOf({}).team.sharedProjects, undefined);
      assert.deepEqual(shared(), []);
      const before = settingsOf({ 'team.sharedProjects': ['billing', 'search'] }).team.sharedProjects;
      await mirrorSharedProjects(store, before, undefined);
      assert.deepEqual(shared(), ['billing', 'search']);
      await mirrorSharedProjects(store, settingsOf({ 'team.sharedProjects': ['search'] }).team.sharedProjects, before);
      assert.deepEqual(shared(), ['search']);
    } finally {
      await store.close();
    }
  });
});
