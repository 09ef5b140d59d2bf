import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..');
const fixture = (name: string): string => readFileSync(join(root, 'test', 'fixtures', 'lint', name), 'utf8');

// One ESLint for the file: each new instance loads and resolves the whole configuration again,
// and lintText keeps no state between calls (no cache is configured).
let shared: ESLint | undefined;

async function lintAs(source: string, virtualPath: string): Promise<string[]> {
  const eslint = (shared ??= new ESLint({ cwd: root }));
  const [result] = await eslint.lintText(source, { filePath: join(root, virtualPath) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const CORE_LAYER = /src\/core imports nothing from src\/extension/;
const count = (messages: string[], re: RegExp): number => messages.filter((m) => re.test(m)).length;

describe('architecture lint rule', function () {
  this.timeout(60000);

  it('reports importing or requiring vscode under src/core', async () => {
    const messages = await lintAs(fixture('coreImportsVscode.ts'), 'src/core/fixtureImportsVscode.ts');
    assert.ok(messages.some((m) => m.startsWith('no-restricted-imports') && /src\/core must stay free of vscode/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('no-restricted-syntax') && /src\/core must stay free of vscode/.test(m)), messages.join('\n'));
  });

  it('allows vscode under src/extension', async () => {
    const messages = await lintAs(fixture('coreImportsVscode.ts'), 'src/extension/fixtureImportsVscode.ts');
    assert.ok(!messages.some((m) => /src\/core must stay free of vscode/.test(m)), messages.join('\n'));
  });

  it('reports every import of extension, cli, shared or webview code under src/core, and nothing else', async () => {
    const messages = await lintAs(fixture('coreImportsOuterLayers.ts'), 'src/core/recall/fixtureImportsOuterLayers.ts');
    // four import declarations (one type-only) through no-restricted-imports, require and import() through no-restricted-syntax
    assert.equal(messages.filter((m) => m.startsWith('no-restricted-imports') && CORE_LAYER.test(m)).length, 4, messages.join('\n'));
    assert.equal(messages.filter((m) => m.startsWith('no-restricted-syntax') && CORE_LAYER.test(m)).length, 2, messages.join('\n'));
  });

  it('allows the same imports outside src/core', async () => {
    const messages = await lintAs(fixture('coreImportsOuterLayers.ts'), 'src/extension/chat/fixtureImportsOuterLayers.ts');
    assert.equal(count(messages, CORE_LAYER), 0, messages.join('\n'));
  });

  it('keeps src/shared free of vscode and of everything outside its folder', async () => {
    const messages = await lintAs(fixture('sharedImportsOutside.ts'), 'src/shared/fixtureImportsOutside.ts');
    assert.equal(count(messages, /src\/shared is imported by the extension host and the browser webview alike/), 3, messages.join('\n'));
  });

  it('lets webview import its own modules and src/shared only', async () => {
    const messages = await lintAs(fixture('sharedImportsOutside.ts'), 'webview/fixtureImportsOutside.ts');
    assert.equal(count(messages, /webview is browser code/), 2, messages.join('\n'));
  });
});
