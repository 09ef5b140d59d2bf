import { DEFAULT_AMBIGUOUS_TECH_TERMS, DEFAULT_TECH_TERMS } from '../config/extractionConfig';

/**
 * Category hints without a language model: a memory that names a known technology answers
 * questions about the technology's category, which it rarely names ("We chose pnpm workspaces over
 * yarn" answers "which package manager do we use?"; "The billing service runs on PostgreSQL"
 * answers "which database …"). The category comes from the extractor's technology vocabulary
 * (`DEFAULT_TECH_TERMS` in config/extractionConfig.ts, term → category); each category becomes one
 * prospective hint "which <category> do we use", stored with the other hints (hints/hintsJobs.ts)
 * and matched by recall's hint channel like an LLM-written hint. Only memories that state how
 * things are (decision, preference, fact, constraint) get them; a term that is also a common word
 * ("node", "express", "jest") counts only when capitalised, as in the extractor.
 */
const HINT_TYPES = new Set(['decision', 'preference', 'fact', 'constraint']);

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const TERMS = Object.keys(DEFAULT_TECH_TERMS).sort((a, b) => b.length - a.length);
const TERM_RE = new RegExp(`(?<![\\w@/.-])(?:${TERMS.map(escapeRe).join('|')})(?![\\w+#-]|\\.\\w)`, 'gi');
const AMBIGUOUS = new Set(DEFAULT_AMBIGUOUS_TECH_TERMS);

/** "package_manager" → "package manager"; "e2e_framework" → "e2e framework". */
export function categoryWords(category: string): string {
  return category.replace(/_/g, ' ');
}

/** The category hints of a memory, one per category named, in order of first mention. */
export function categoryHints(content: string, type: string): string[] {
  if (!HINT_TYPES.has(type)) return [];
  const out: string[] = [];
  for (const m of content.matchAll(TERM_RE)) {
    const term = m[0];
    if (AMBIGUOUS.has(term.toLowerCase()) && term[0] === term[0]?.toLowerCase()) continue;
    const category = DEFAULT_TECH_TERMS[term.toLowerCase()];
    if (!category) continue;
    const hint = `which ${categoryWords(category)} do we use`;
    if (!out.includes(hint)) out.push(hint);
  }
  return out;
}
