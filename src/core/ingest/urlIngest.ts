import type { FetchConfig } from '../config/ingestConfig';
import { MemoryError } from '../errors';
import { remember } from '../memory/remember';
import type { RememberDeps, RememberResult } from '../memory/remember';
import type { MemoryStore } from '../store/storeTypes';
import { fetchUrlContent } from './urlFetcher';
import type { FetchDeps, FetchedContent } from './urlFetcher';

export interface UrlIngestResult extends RememberResult {
  readonly url: string;
  readonly title: string | undefined;
  readonly byteLength: number;
}

/**
 * Fetches a document (with every guard of urlFetcher) and remembers it: source id is the final
 * URL, so fetching the same page again dedups; long pages are chunked by remember().
 */
export async function ingestUrl(store: MemoryStore, url: string, deps: { remember: RememberDeps; fetch: FetchConfig; fetchDeps?: FetchDeps; project?: string }): Promise<UrlIngestResult> {
  const doc: FetchedContent = await fetchUrlContent(url, deps.fetch, deps.fetchDeps ?? {});
  if (!doc.content.trim()) throw new MemoryError('E_FETCH_FAILED', `${doc.url} has no text to remember.`);
  const content = doc.title ? `${doc.title}\n\n${doc.content}` : doc.content;
  const r = await remember(store, { content, type: 'document', sourceId: doc.url, sourceType: 'url', ...(deps.project ? { project: deps.project } : {}) }, deps.remember);
  return { ...r, url: doc.url, title: doc.title, byteLength: doc.byteLength };
}
