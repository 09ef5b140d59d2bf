import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMemorySettings, USER_ONLY_SETTINGS, userScopedGetter } from '../../../src/core/config/memorySettings';
import type { SettingLevels } from '../../../src/core/config/memorySettings';

interface SettingSchema { readonly scope?: string }
const root = process.env.AGENT_MEMORY_ROOT ?? join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, SettingSchema> } | { properties: Record<string, SettingSchema> }[] } };
const configuration = manifest.contributes.configuration;
const properties: Record<string, SettingSchema> = Object.assign({}, ...(Array.isArray(configuration) ? configuration : [configuration]).map((c) => c.properties));

describe('settings that weaken a safeguard', () => {
  it('are machine or application scoped in package.json', () => {
    for (const key of USER_ONLY_SETTINGS) {
      const scope = properties[`agentMemory.${key}`]?.scope;
      assert.ok(scope === 'machine' || scope === 'application', `agentMemory.${key} is '${scope}'`);
    }
    assert.equal(properties['agentMemory.tools.confirmWrites']?.scope, 'application');
    assert.equal(properties['agentMemory.fetch.allowPrivateAddresses']?.scope, 'machine');
  });

  it('are read from the user levels only: a workspace value cannot turn confirmations off or allow private fetches', () => {
    const workspace: Record<string, unknown> = { 'tools.confirmWrites': false, 'fetch.allowPrivateAddresses': true, 'search.topK': 7 };
    const levels: Record<string, SettingLevels> = {
      'tools.confirmWrites': { defaultValue: true, workspaceValue: false },
      'fetch.allowPrivateAddresses': { defaultValue: false, workspaceFolderValue: true },
    };
    const settings = readMemorySettings(userScopedGetter((k) => workspace[k], (k) => levels[k]));
    assert.equal(settings.confirmToolWrites, true);
    assert.equal(settings.fetch.allowPrivateAddresses, false);
    const mine = readMemorySettings(userScopedGetter((k) => workspace[k], (k) => ({ ...levels[k], globalValue: k === 'tools.confirmWrites' ? false : true })));
    assert.equal(mine.confirmToolWrites, false, 'the user may turn them off in their own settings');
    assert.equal(mine.fetch.allowPrivateAddresses, true);
  });

  it('leaves every other setting to the normal lookup', () => {
    const get = userScopedGetter((k) => (k === 'search.topK' ? 7 : undefined), () => { throw new Error('not consulted'); });
    assert.equal(get('search.topK'), 7);
  });
});
