import { DEFAULT_TECH_TERMS } from '../config/extractionConfig';
import { DEFAULT_ENTITY_ALIASES } from './entityAliases';

/**
 * Known names for the tagger's `gaz` feature (docs/extraction.md): the technology terms and the
 * alias table, lowercase. A workspace adds its own names (dependency and file names) at run time.
 */
export function defaultGazetteer(extra: Iterable<string> = []): Set<string> {
  const out = new Set<string>();
  for (const t of Object.keys(DEFAULT_TECH_TERMS)) out.add(t);
  for (const [a, c] of Object.entries(DEFAULT_ENTITY_ALIASES)) { out.add(a); out.add(c.toLowerCase()); }
  for (const t of extra) if (t.trim()) out.add(t.trim().toLowerCase());
  return out;
}
