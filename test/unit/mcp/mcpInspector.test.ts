/**
 * The MCP Inspector's CLI mode (@modelcontextprotocol/inspector --cli), a client we did not write,
 * against `agent-memory mcp` from the built dist/cli.js.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/tempDir';
import { CLI, ROOT, requireBuiltCli } from './mcpClient';

const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');

describe('agent-memory mcp under the MCP Inspector CLI', function () {
  this.timeout(180_000);
  let temp: ReturnType<typeof makeTempDir>;
  before(() => { requireBuiltCli(); temp = makeTempDir('am-mcp-inspector-'); });
  after(() => temp.cleanup());

  const inspect = (...method: string[]): Record<string, unknown> => {
    const r = spawnSync(process.execPath, [INSPECTOR, '--cli', process.execPath, CLI, '--store', join(temp.dir, 'store'), 'mcp', ...method], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `inspector ${method.join(' ')}: ${r.stderr}${r.stdout}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  it('lists tools, resources and prompts, calls a writing and a reading tool, reads a resource and gets the prompt', () => {
    const tools = (inspect('--method', 'tools/list').tools as { name: string }[]).map((t) => t.name);
    assert.ok(tools.includes('memory_recall') && tools.includes('search_nodes') && tools.length === 15, tools.join(', '));
    const created = inspect('--method', 'tools/call', '--tool-name', 'memory_remember', '--tool-arg', 'content=The staging cluster runs Kubernetes 1.31 on three nodes.');
    assert.match(JSON.stringify(created), /Remembered as/);
    const recalled = inspect('--method', 'tools/call', '--tool-name', 'memory_recall', '--tool-arg', 'query=how many nodes does staging have');
    assert.match(JSON.stringify(recalled), /three nodes/);
    const resources = (inspect('--method', 'resources/list').resources as { uri: string }[]).map((r) => r.uri);
    assert.deepEqual(resources.slice(0, 2), ['memory://pinned', 'memory://recent']);
    assert.match(JSON.stringify(inspect('--method', 'resources/read', '--uri', 'memory://recent')), /Kubernetes/);
    assert.deepEqual((inspect('--method', 'prompts/list').prompts as { name: string }[]).map((p) => p.name), ['session-start']);
    assert.match(JSON.stringify(inspect('--method', 'prompts/get', '--prompt-name', 'session-start')), /Kubernetes/);
  });
});
