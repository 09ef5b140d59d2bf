/**
 * agentMemory.mcp.readOnly through the MCP server itself (src/core/mcp/mcpServer.ts), connected to
 * the SDK's client in memory: with the setting on, no tool that writes is offered or callable.
 */
import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ManualClock } from '../../../src/core/clock';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import { noProgress } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';
import { createMemoryMcpServer } from '../../../src/core/mcp/mcpServer';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { settingContract } from './contractRegistry';

async function toolsWith(readOnly: boolean | undefined): Promise<{ tools: string[]; write: string }> {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const settings = readMemorySettings((k) => (k === 'mcp.readOnly' ? readOnly : k === 'graph.enabled' ? false : undefined));
  const host = { paths: { storeDir: '/nonexistent', bundledModelsDir: '/nonexistent', cacheDir: '/nonexistent' }, logger: silentLogger, clock, llm: undefined, progress: noProgress };
  const engine = MemoryEngine.onStore(await openMemoryStore({ clock }), host, settings, { mode: 'onDemand', embedder: () => undefined });
  const mcp = createMemoryMcpServer(engine, { version: 'test', readOnly: engine.currentSettings.mcpReadOnly, logger: silentLogger, settleMs: 1_000 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'contract', version: '1' });
  await Promise.all([mcp.server.connect(a), client.connect(b)]);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const r = await client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'Zed', entityType: 'person', observations: [] }] } }).then((x) => JSON.stringify(x), (e: Error) => e.message);
    return { tools, write: r };
  } finally {
    await client.close();
    mcp.dispose();
    await engine.close();
  }
}

describe('settings contract: the MCP server', () => {
  settingContract('mcp.readOnly', 'the MCP server offers and accepts no writing tool', async () => {
    const off = await toolsWith(undefined);
    assert.ok(off.tools.includes('create_entities') && off.tools.includes('memory_remember'));
    assert.match(off.write, /"Zed"/);
    const on = await toolsWith(true);
    assert.deepEqual(on.tools, ['memory_entity', 'memory_recall', 'open_nodes', 'read_graph', 'search_nodes']);
    assert.match(on.write, /not found/i);
  });
});
