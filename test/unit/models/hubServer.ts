/**
 * A loopback (127.0.0.1) HTTP server serving a model folder in the Hugging Face hub's URL layout:
 * GET /api/models/{repo}?blobs=true (listing with sizes, lfs.sha256 for the ONNX file, git blob ids
 * for the rest) and GET /{repo}/resolve/main/{file}. Faults can be injected per file.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface HubFaults {
  /** Serve these bytes instead of the file's (a corrupted download). */
  corrupt?: string;
  /** Answer 500 for this file. */
  fail?: string;
  /** Send half of this file, then stall (for the timeout). */
  stall?: string;
}

export interface HubServer {
  readonly baseUrl: string;
  readonly requests: string[];
  faults: HubFaults;
  close(): Promise<void>;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).map((f) => f.split('\\').join('/')).sort();
}

export async function startHubServer(repo: string, modelDir: string): Promise<HubServer> {
  const files = listFiles(modelDir);
  const requests: string[] = [];
  const state: { faults: HubFaults } = { faults: {} };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    if (url.pathname === `/api/models/${repo}`) {
      const siblings = files.map((f) => {
        const bytes = readFileSync(join(modelDir, f));
        const lfs = f.endsWith('.onnx');
        return lfs
          ? { rfilename: f, size: bytes.length, lfs: { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, pointerSize: 134 } }
          : { rfilename: f, size: bytes.length, blobId: createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex') };
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: repo, siblings }));
      return;
    }
    const prefix = `/${repo}/resolve/main/`;
    const file = url.pathname.startsWith(prefix) ? decodeURIComponent(url.pathname.slice(prefix.length)) : '';
    if (!files.includes(file)) { res.writeHead(404); res.end('not found'); return; }
    if (state.faults.fail === file) { res.writeHead(500); res.end('boom'); return; }
    let bytes = readFileSync(join(modelDir, file));
    if (state.faults.corrupt === file) { bytes = Buffer.from(bytes); bytes[0] = (bytes[0] ?? 0) ^ 0xff; }
    res.writeHead(200, { 'content-length': bytes.length, 'content-type': 'application/octet-stream' });
    if (state.faults.stall === file) { res.write(bytes.subarray(0, bytes.length >> 1)); return; }
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get faults() { return state.faults; },
    set faults(f: HubFaults) { state.faults = f; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A loopback port with nothing listening (bound, then closed). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

