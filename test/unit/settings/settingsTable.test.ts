import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { checkSettingValue, parseSettingText } from '../../../src/core/config/settingValues';
import { SETTINGS, SETTING_PREFIX, findSetting } from '../../../src/core/config/settingsTable';
import type { SettingSpec } from '../../../src/core/config/settingsTable';

type Group = { properties: Record<string, Record<string, unknown>> };
const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: Group[] } };
const contributed: Record<string, Record<string, unknown>> = Object.assign({}, ...pkg.contributes.configuration.map((g) => g.properties));

/** A table entry in package.json's shape (what contributes.configuration must say). */
function asContributed(s: SettingSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { type: s.type, default: s.default };
  if (s.minimum !== undefined) out.minimum = s.minimum;
  if (s.maximum !== undefined) out.maximum = s.maximum;
  if (s.enum) out.enum = s.enum;
  if (s.itemType && s.type === 'array') out.items = { type: s.itemType };
  if (s.itemType && s.type === 'object') out.additionalProperties = { type: s.itemType };
  if (s.scope) out.scope = s.scope;
  if (s.restricted) out.restricted = true;
  if (s.description !== undefined) out.description = s.description;
  if (s.markdownDescription !== undefined) out.markdownDescription = s.markdownDescription;
  if (s.enumDescriptions) out.enumDescriptions = s.enumDescriptions;
  return out;
}

const at = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((n, p) => (typeof n === 'object' && n !== null ? (n as Record<string, unknown>)[p] : undefined), o);

/** A valid value other than the default. */
function another(s: SettingSpec): unknown {
  if (s.enum) return s.enum.find((v) => v !== s.default);
  switch (s.type) {
    case 'boolean': return !s.default;
    case 'integer': case 'number': return s.default === s.maximum ? s.minimum : s.maximum;
    case 'string': return 'settings-table-test';
    case 'object': return { pg: 'PostgreSQL' };
    default: return ['settings-table-project'];
  }
}

describe('settings table', () => {
  it('says exactly what package.json contributes: keys, order, types, defaults, bounds, enums, scopes, descriptions', () => {
    assert.deepEqual(Object.keys(contributed), SETTINGS.map((s) => SETTING_PREFIX + s.key));
    for (const s of SETTINGS) assert.deepEqual(contributed[SETTING_PREFIX + s.key], asContributed(s), s.key);
  });

  it('gives every number a range and no key twice', () => {
    assert.equal(new Set(SETTINGS.map((s) => s.key)).size, SETTINGS.length);
    for (const s of SETTINGS.filter((x) => x.type === 'number' || x.type === 'integer')) {
      assert.ok(s.minimum !== undefined && s.maximum !== undefined, `${s.key} has no range`);
    }
  });

  it("matches the core's defaults: nothing set puts each table default at its target", () => {
    const settings = readMemorySettings(() => undefined);
    for (const s of SETTINGS) {
      const expected = s.scale !== undefined ? (s.default as number) * s.scale : s.default;
      const actual = at(settings, s.target);
      // The feedback loop's settings stay partial (its own resolvers apply the same defaults).
      if (s.target.startsWith('feedbackLoop.') && actual === undefined) continue;
      assert.deepEqual(actual, expected, `${s.key} -> ${s.target}`);
    }
  });

  it('places a set value at its target, converted into the configuration unit', () => {
    for (const s of SETTINGS) {
      const value = another(s);
      const settings = readMemorySettings((k) => (k === s.key ? value : undefined));
      assert.deepEqual(at(settings, s.target), s.scale !== undefined ? (value as number) * s.scale : value, `${s.key} -> ${s.target}`);
    }
  });

  it('falls back to the default for a bad value, with a message naming the key and the accepted range', () => {
    const problems: string[] = [];
    const s = readMemorySettings((k) => ({ 'search.topK': 900, 'search.alpha': 'high', 'models.rerankProvider': 'magic', 'search.vectorEnabled': 'no' } as Record<string, unknown>)[k], (p) => problems.push(p));
    assert.equal(s.search.topK, 20);
    assert.equal(s.search.alpha, 0.5);
    assert.equal(s.models.rerankProvider, 'embedding');
    assert.equal(s.search.vector.enabled, true);
    assert.deepEqual(problems, [
      "agentMemory.search.alpha must be a number from 0 to 1 (got 'high'); using the default 0.5.",
      'agentMemory.search.topK must be a whole number from 1 to 500 (got 900); using the default 20.',
      "agentMemory.search.vectorEnabled must be true or false (got 'no'); using the default true.",
      "agentMemory.models.rerankProvider must be one of 'none', 'embedding', 'crossEncoder', 'llm' (got 'magic'); using the default \"embedding\".",
    ]);
  });

  it('parses the text forms the CLI receives', () => {
    const spec = (k: string): SettingSpec => findSetting(k) as SettingSpec;
    assert.deepEqual(parseSettingText(spec('search.topK'), ' 30 '), { ok: true, value: 30 });
    assert.equal(parseSettingText(spec('search.topK'), '2.5').ok, false);
    assert.equal(parseSettingText(spec('search.topK'), '').ok, false);
    assert.deepEqual(parseSettingText(spec('graph.enabled'), 'false'), { ok: true, value: false });
    assert.equal(parseSettingText(spec('graph.enabled'), 'no').ok, false);
    assert.deepEqual(parseSettingText(spec('extraction.aliases'), '{"pg":"PostgreSQL"}'), { ok: true, value: { pg: 'PostgreSQL' } });
    assert.equal(parseSettingText(spec('extraction.aliases'), '{"pg":1}').ok, false);
    assert.deepEqual(parseSettingText(spec('team.sharedProjects'), '["web"]'), { ok: true, value: ['web'] });
    assert.deepEqual(parseSettingText(spec('llm.provider'), 'vscode'), { ok: true, value: 'vscode' });
    assert.equal(checkSettingValue(spec('search.alpha'), Number.NaN).ok, false);
    assert.equal(findSetting('agentMemory.search.alpha'), findSetting('search.alpha'));
    assert.equal(findSetting('search.nope'), undefined);
  });
});
