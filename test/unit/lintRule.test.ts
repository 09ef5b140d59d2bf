import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..');
const fixture = readFileSync(join(root, 'test', 'fixtures', 'lint', 'coreImportsVscode.ts'), 'utf8');

async function lintAs(virtualPath: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(fixture, { filePath: join(root, virtualPath) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

describe('architecture lint rule', function () {
  this.timeout(60000);

  it('reports importing or requiring vscode under src/core', async () => {
    const messages = await lintAs('src/core/fixtureImportsVscode.ts');
    assert.ok(messages.some((m) => m.startsWith('no-restricted-imports') && /src\/core must stay free of vscode/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('no-restricted-syntax') && /src\/core must stay free of vscode/.test(m)), messages.join('\n'));
  });

  it('allows vscode under src/extension', async () => {
    const messages = await lintAs('src/extension/fixtureImportsVscode.ts');
    assert.ok(!messages.some((m) => /src\/core must stay free of vscode/.test(m)), messages.join('\n'));
  });
});
