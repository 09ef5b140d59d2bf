import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_FETCH_CONFIG, resolveFetchConfig } from '../../../src/core/config/ingestConfig';
import { isMemoryError } from '../../../src/core/errors';
import { fetchUrlContent } from '../../../src/core/ingest/urlFetcher';
import type { FetchDeps } from '../../../src/core/ingest/urlFetcher';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('URL fetcher', () => {
  let server: Server;
  let port = 0;
  const routes = new Map<string, Handler>();
  let bytesSent = 0;

  before(async () => {
    server = createServer((req, res) => {
      const h = routes.get(req.url ?? '');
      if (h) h(req, res); else { res.statusCode = 404; res.end(); }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
    routes.set('/page', (_q, s) => { s.setHeader('content-type', 'text/html; charset=utf-8'); s.end('<title>Doc</title><script>x()</script><p>Hello &amp; welcome</p>'); });
    routes.set('/json', (_q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"a":1}'); });
    routes.set('/png', (_q, s) => { s.setHeader('content-type', 'image/png'); s.end(Buffer.alloc(10)); });
    routes.set('/big-declared', (_q, s) => { s.setHeader('content-type', 'text/plain'); s.setHeader('content-length', String(5000)); s.end('x'.repeat(5000)); });
    routes.set('/big-streamed', (_q, s) => {
      s.setHeader('content-type', 'text/plain');
      bytesSent = 0;
      const chunk = 'y'.repeat(1024);
      const timer = setInterval(() => {
        if (s.destroyed || bytesSent > 1024 * 1024) { clearInterval(timer); s.end(); return; }
        bytesSent += chunk.length;
        s.write(chunk);
      }, 1);
      s.on('close', () => clearInterval(timer));
    });
    routes.set('/slow', (_q, s) => { s.setHeader('content-type', 'text/plain'); s.write('partial'); });
    routes.set('/to-page', (_q, s) => { s.statusCode = 302; s.setHeader('location', '/page'); s.end(); });
    routes.set('/to-loopback', (_q, s) => { s.statusCode = 302; s.setHeader('location', `http://127.0.0.1:${port}/page`); s.end(); });
    routes.set('/no-location', (_q, s) => { s.statusCode = 302; s.end(); });
    routes.set('/loop', (_q, s) => { s.statusCode = 302; s.setHeader('location', '/loop'); s.end(); });
  });

  after(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  // The test's resolver maps docs.test to the loopback server and permits exactly that host.
  const deps: FetchDeps = {
    resolve: async (host) => (host === 'docs.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
    permitAddress: (_addr, host) => host === 'docs.test',
  };
  const url = (path: string) => `http://docs.test:${port}${path}`;
  const refused = (e: unknown) => isMemoryError(e, 'E_FETCH_REFUSED');

  it('fetches HTML as text with its title', async () => {
    const r = await fetchUrlContent(url('/page'), DEFAULT_FETCH_CONFIG, deps);
    assert.equal(r.title, 'Doc');
    assert.equal(r.content, 'Hello & welcome');
    assert.equal(r.contentType, 'text/html');
  });

  it('fetches JSON as-is', async () => {
    assert.equal((await fetchUrlContent(url('/json'), DEFAULT_FETCH_CONFIG, deps)).content, '{"a":1}');
  });

  it('refuses loopback by default, by IP and by name', async () => {
    await assert.rejects(fetchUrlContent(`http://127.0.0.1:${port}/page`, DEFAULT_FETCH_CONFIG), refused);
    await assert.rejects(fetchUrlContent(`http://localhost:${port}/page`, DEFAULT_FETCH_CONFIG), refused);
  });

  it('refuses a public-looking name that resolves to a private address', async () => {
    const sneaky: FetchDeps = { resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }] };
    await assert.rejects(fetchUrlContent('http://innocent.example/', DEFAULT_FETCH_CONFIG, sneaky), refused);
  });

  it('allows loopback when the setting allows private addresses', async () => {
    const r = await fetchUrlContent(`http://127.0.0.1:${port}/json`, resolveFetchConfig({ allowPrivateAddresses: true }));
    assert.equal(r.content, '{"a":1}');
  });

  it('refuses non-http protocols', async () => {
    for (const u of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)']) await assert.rejects(fetchUrlContent(u, DEFAULT_FETCH_CONFIG, deps), refused, u);
  });

  it('refuses unsupported content types with a clear error', async () => {
    await assert.rejects(fetchUrlContent(url('/png'), DEFAULT_FETCH_CONFIG, deps), (e: unknown) => refused(e) && /image\/png/.test((e as Error).message));
  });

  it('refuses a declared Content-Length over the limit', async () => {
    await assert.rejects(fetchUrlContent(url('/big-declared'), resolveFetchConfig({ maxBytes: 1024 }), deps), (e: unknown) => refused(e) && /Content-Length/.test((e as Error).message));
  });

  it('aborts a streamed body once it passes the limit', async () => {
    await assert.rejects(fetchUrlContent(url('/big-streamed'), resolveFetchConfig({ maxBytes: 4096 }), deps), (e: unknown) => refused(e) && /larger than/.test((e as Error).message));
    assert.ok(bytesSent < 1024 * 1024, 'the server stopped sending early');
  });

  it('times out a stalled response', async () => {
    const cfg = { ...DEFAULT_FETCH_CONFIG, timeoutMs: 100 };
    await assert.rejects(fetchUrlContent(url('/slow'), cfg, deps), (e: unknown) => isMemoryError(e, 'E_TIMEOUT'));
  });

  it('follows redirects and re-validates every hop', async () => {
    assert.equal((await fetchUrlContent(url('/to-page'), DEFAULT_FETCH_CONFIG, deps)).title, 'Doc');
    await assert.rejects(fetchUrlContent(url('/to-loopback'), DEFAULT_FETCH_CONFIG, deps), refused);
  });

  it('stops after the maximum number of redirects and rejects a redirect without Location', async () => {
    await assert.rejects(fetchUrlContent(url('/loop'), DEFAULT_FETCH_CONFIG, deps), (e: unknown) => refused(e) && /Too many redirects/.test((e as Error).message));
    await assert.rejects(fetchUrlContent(url('/no-location'), DEFAULT_FETCH_CONFIG, deps), (e: unknown) => isMemoryError(e, 'E_FETCH_FAILED'));
  });

  it('reports HTTP errors and unresolvable hosts as fetch failures', async () => {
    await assert.rejects(fetchUrlContent(url('/missing'), DEFAULT_FETCH_CONFIG, deps), (e: unknown) => isMemoryError(e, 'E_FETCH_FAILED') && /404/.test((e as Error).message));
    await assert.rejects(fetchUrlContent('http://nowhere.test/', DEFAULT_FETCH_CONFIG, deps), (e: unknown) => isMemoryError(e, 'E_FETCH_FAILED'));
  });
});
