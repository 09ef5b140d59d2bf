import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_FETCH_CONFIG } from '../../../src/core/config/ingestConfig';
import { isMemoryError } from '../../../src/core/errors';
import { ingestUrl } from '../../../src/core/ingest/urlIngest';
import { defaultRememberDeps } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';

describe('URL ingest', () => {
  let server: Server;
  let port = 0;
  const long = Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i} explains how the deployment pipeline promotes builds.</p>`).join('');
  before(async () => {
    server = createServer((q, s) => {
      s.setHeader('content-type', 'text/html');
      s.end(q.url === '/empty' ? '<script>only()</script>' : q.url === '/long' ? `<title>Pipeline</title>${long}` : '<title>Guide</title><p>Use pnpm.</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  const deps = (clock: ManualClock) => ({
    remember: defaultRememberDeps(clock), fetch: DEFAULT_FETCH_CONFIG,
    fetchDeps: { resolve: async () => [{ address: '127.0.0.1', family: 4 as const }], permitAddress: (_a: string, h: string) => h === 'docs.test' },
  });

  it('remembers the page text under its title with the URL as source id, and dedups a refetch', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    const r = await ingestUrl(store, `http://docs.test:${port}/`, deps(clock));
    const row = store.read((db) => db.get<{ content: string; source_id: string; source_type: string; type: string }>('SELECT content, source_id, source_type, type FROM memories'));
    assert.deepEqual(row, { content: 'Guide\n\nUse pnpm.', source_id: `http://docs.test:${port}/`, source_type: 'url', type: 'document' });
    const again = await ingestUrl(store, `http://docs.test:${port}/`, deps(clock));
    assert.deepEqual([again.duplicate, again.id], [true, r.id]);
  });

  it('chunks a long page', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    const r = await ingestUrl(store, `http://docs.test:${port}/long`, deps(clock));
    assert.ok(r.chunkIds.length > 1);
  });

  it('refuses a page with no text', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    await assert.rejects(ingestUrl(store, `http://docs.test:${port}/empty`, deps(clock)), (e: unknown) => isMemoryError(e, 'E_FETCH_FAILED'));
  });
});
