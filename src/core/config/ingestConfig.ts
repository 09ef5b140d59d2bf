/**
 * Write-path chunking and URL ingest limits (docs/ingest.md).
 */
export interface ChunkingConfig {
  /** Content longer than this is split into chunks (default 800). */
  readonly maxContentChars: number;
  /** Target chunk size (default 600). */
  readonly chunkTargetChars: number;
  /** Share of the target appended from the next chunk as overlap (default 25 %). */
  readonly overlapRatio: number;
}

export interface FetchConfig {
  /** Per-request timeout (default 30 s). */
  readonly timeoutMs: number;
  /** Body limit (default 10 MB). */
  readonly maxBytes: number;
  /** Redirect hops, each re-validated (default 5). */
  readonly maxRedirects: number;
  /** Loopback, private and link-local targets are refused unless this is set. */
  readonly allowPrivateAddresses: boolean;
  readonly userAgent: string;
}

export const DEFAULT_CHUNKING_CONFIG: ChunkingConfig = { maxContentChars: 800, chunkTargetChars: 600, overlapRatio: 0.25 };

export const DEFAULT_FETCH_CONFIG: FetchConfig = {
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  allowPrivateAddresses: false,
  userAgent: 'AgentMemory/0.1 (document-ingest)',
};

const clamp = (v: number | undefined, lo: number, hi: number, dflt: number): number =>
  v === undefined || !Number.isFinite(v) ? dflt : Math.min(hi, Math.max(lo, v));

export function resolveChunkingConfig(p: Partial<ChunkingConfig> = {}): ChunkingConfig {
  const chunkTargetChars = Math.round(clamp(p.chunkTargetChars, 100, 20_000, DEFAULT_CHUNKING_CONFIG.chunkTargetChars));
  return {
    chunkTargetChars,
    maxContentChars: Math.round(clamp(p.maxContentChars, chunkTargetChars, 100_000, Math.max(chunkTargetChars, DEFAULT_CHUNKING_CONFIG.maxContentChars))),
    overlapRatio: clamp(p.overlapRatio, 0, 0.5, DEFAULT_CHUNKING_CONFIG.overlapRatio),
  };
}

export function resolveFetchConfig(p: Partial<FetchConfig> = {}): FetchConfig {
  return {
    timeoutMs: Math.round(clamp(p.timeoutMs, 1_000, 120_000, DEFAULT_FETCH_CONFIG.timeoutMs)),
    maxBytes: Math.round(clamp(p.maxBytes, 1_024, 50 * 1024 * 1024, DEFAULT_FETCH_CONFIG.maxBytes)),
    maxRedirects: Math.round(clamp(p.maxRedirects, 0, 10, DEFAULT_FETCH_CONFIG.maxRedirects)),
    allowPrivateAddresses: p.allowPrivateAddresses ?? DEFAULT_FETCH_CONFIG.allowPrivateAddresses,
    userAgent: p.userAgent ?? DEFAULT_FETCH_CONFIG.userAgent,
  };
}
