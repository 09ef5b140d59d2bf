import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import type { FetchConfig } from '../config/ingestConfig';
import { MemoryError } from '../errors';
import { isLocalHostname, isPrivateAddress } from './addressGuard';
import { htmlToText } from './htmlText';

/**
 * Document fetch for URL ingest.
 * Every hop is resolved first and every resolved address checked; the connection is then pinned
 * to the checked address, so a second DNS answer cannot swap in a private one.
 */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface FetchDeps {
  /** DNS resolution; defaults to the system resolver (all A and AAAA answers). */
  readonly resolve?: Resolver;
  /** Lets a caller (tests) permit specific private addresses without the global setting. */
  readonly permitAddress?: (address: string, hostname: string) => boolean;
  /** How this host lets a user allow private addresses, ending a refusal (the CLI names its flags). */
  readonly allowPrivateHint?: string;
}

const DEFAULT_ALLOW_PRIVATE_HINT = 'enable private addresses in the settings to allow it';

export interface FetchedContent {
  readonly url: string;
  readonly content: string;
  readonly contentType: string;
  readonly title: string | undefined;
  readonly byteLength: number;
}

const ALLOWED_TYPES = [/^text\/[\w.+-]+$/, /^application\/json$/, /^application\/xml$/, /^application\/[\w.+-]+\+(?:json|xml)$/];

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

async function checkTarget(url: URL, cfg: FetchConfig, deps: FetchDeps): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MemoryError('E_FETCH_REFUSED', `Only http and https URLs can be fetched (got ${url.protocol.replace(/:$/, '')}).`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!cfg.allowPrivateAddresses && isLocalHostname(host)) {
    throw new MemoryError('E_FETCH_REFUSED', `Refusing to fetch ${host}: it is a local address (${deps.allowPrivateHint ?? DEFAULT_ALLOW_PRIVATE_HINT}).`);
  }
  let addresses: readonly ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try { addresses = await (deps.resolve ?? systemResolver)(host); } catch (e) {
      throw new MemoryError('E_FETCH_FAILED', `Could not resolve ${host}.`, undefined, { cause: e });
    }
  }
  if (!addresses.length) throw new MemoryError('E_FETCH_FAILED', `Could not resolve ${host}.`);
  const refused = addresses.find((a) => isPrivateAddress(a.address) && !cfg.allowPrivateAddresses && !deps.permitAddress?.(a.address, host));
  if (refused) {
    throw new MemoryError('E_FETCH_REFUSED', `Refusing to fetch ${host}: it resolves to a loopback, private, reserved or this machine's own address (see docs/ingest.md; ${deps.allowPrivateHint ?? DEFAULT_ALLOW_PRIVATE_HINT}).`, { address: refused.address });
  }
  return addresses[0] as ResolvedAddress;
}

function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, cb: (...a: unknown[]) => void) => {
    if (options && options.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

interface OpenResponse {
  readonly res: IncomingMessage;
  readonly abort: (e: Error) => void;
  /** Why the request was torn down (timeout, size limit), if it was. */
  readonly reason: () => Error | undefined;
  readonly done: () => void;
}

function open(url: URL, target: ResolvedAddress, cfg: FetchConfig): Promise<OpenResponse> {
  return new Promise((resolve, reject) => {
    let reason: Error | undefined;
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      lookup: pinnedLookup(target),
      headers: { 'user-agent': cfg.userAgent, accept: 'text/html, text/*;q=0.9, application/json;q=0.8, application/xml;q=0.8' },
    });
    const abort = (e: Error): void => { reason ??= e; req.destroy(e); };
    const timer = setTimeout(() => abort(new MemoryError('E_TIMEOUT', `Fetching ${url.href} took longer than ${cfg.timeoutMs} ms.`)), cfg.timeoutMs);
    const done = (): void => clearTimeout(timer);
    req.on('error', (e) => { done(); reject(e instanceof MemoryError ? e : new MemoryError('E_FETCH_FAILED', `Fetching ${url.href} failed: ${e.message}`, undefined, { cause: e })); });
    req.on('response', (res) => resolve({ res, abort, reason: () => reason, done }));
    req.end();
  });
}

function readBody({ res, abort, reason }: OpenResponse, cfg: FetchConfig): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let total = 0;
    res.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cfg.maxBytes) {
        const e = new MemoryError('E_FETCH_REFUSED', `The document is larger than the ${cfg.maxBytes}-byte limit.`);
        reject(e);
        abort(e);
        return;
      }
      parts.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(parts)));
    res.on('error', (e) => reject(reason() ?? (e instanceof MemoryError ? e : new MemoryError('E_FETCH_FAILED', `Reading the response failed: ${e.message}`))));
    res.on('aborted', () => reject(reason() ?? new MemoryError('E_FETCH_FAILED', 'The response was cut off.')));
  });
}

function decode(body: Buffer, contentTypeHeader: string): string {
  const charset = /charset=([\w-]+)/i.exec(contentTypeHeader)?.[1];
  try { return new TextDecoder(charset ?? 'utf-8').decode(body); } catch { return new TextDecoder('utf-8').decode(body); }
}

/** Fetches a document with the guards above. Errors are coded MemoryErrors with one-line messages. */
export async function fetchUrlContent(rawUrl: string, cfg: FetchConfig, deps: FetchDeps = {}): Promise<FetchedContent> {
  let url: URL;
  try { url = new URL(rawUrl); } catch { throw new MemoryError('E_INVALID_INPUT', `Not a valid URL: ${rawUrl}`); }
  for (let hop = 0; ; hop++) {
    const target = await checkTarget(url, cfg, deps);
    const opened = await open(url, target, cfg);
    const { res, abort, done } = opened;
    try {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        const location = res.headers.location;
        if (!location) throw new MemoryError('E_FETCH_FAILED', `${url.href} redirected without a Location header.`);
        if (hop >= cfg.maxRedirects) throw new MemoryError('E_FETCH_REFUSED', `Too many redirects (more than ${cfg.maxRedirects}).`);
        url = new URL(location, url);
        continue;
      }
      if (status < 200 || status >= 300) { res.resume(); throw new MemoryError('E_FETCH_FAILED', `${url.href} answered HTTP ${status}.`); }
      const typeHeader = String(res.headers['content-type'] ?? '');
      const contentType = typeHeader.split(';')[0]?.trim().toLowerCase() ?? '';
      if (!ALLOWED_TYPES.some((re) => re.test(contentType))) {
        res.resume();
        throw new MemoryError('E_FETCH_REFUSED', `Unsupported content type '${contentType || 'none'}': only text, HTML, JSON and XML documents can be ingested.`);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > cfg.maxBytes) {
        const e = new MemoryError('E_FETCH_REFUSED', `The document is larger than the ${cfg.maxBytes}-byte limit (Content-Length ${declared}).`);
        abort(e);
        throw e;
      }
      const body = await readBody(opened, cfg);
      const text = decode(body, typeHeader);
      if (contentType === 'text/html' || contentType === 'application/xhtml+xml') {
        const { text: plain, title } = htmlToText(text);
        return { url: url.href, content: plain, contentType, title, byteLength: body.length };
      }
      return { url: url.href, content: text.trim(), contentType, title: undefined, byteLength: body.length };
    } finally {
      done();
    }
  }
}
