/** Name and key normalisation shared by the extractor and the graph apply path. */

/** canonical_name: trim, lowercase, collapse whitespace. */
export function canonicalName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Shortest and longest accepted claim/group key (reject < 3, cut to 120). */
export const MIN_KEY_CHARS = 3;
export const MAX_KEY_CHARS = 120;

/**
 * claim_key / group_key normalisation: lowercase, each run of
 * non-alphanumerics becomes `_`, trim and collapse underscores; shorter than 3 → null; cut to 120.
 */
export function normalizeKey(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const k = raw.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/_+/g, '_').replace(/^_+|_+$/g, '');
  if (k.length < MIN_KEY_CHARS) return null;
  return k.slice(0, MAX_KEY_CHARS).replace(/_+$/g, '');
}
