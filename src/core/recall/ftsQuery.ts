/**
 * FTS5 query sanitiser. User text never reaches MATCH raw: every term is a double-quoted FTS5
 * string (embedded quotes doubled), so AND/OR/NOT/NEAR, column filters ("content:"), prefix stars,
 * carets, parentheses and braces are all literal characters inside a phrase. Control characters and
 * NULs are removed. The result is always passed as a bound parameter, never spliced into SQL.
 */

/** Quotes one term as an FTS5 string. */
export function quoteFtsTerm(term: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = term.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return `"${clean.replace(/"/g, '""')}"`;
}

/**
 * A MATCH expression over `terms` joined with OR (probing collects candidates by any term) or
 * AND. Returns undefined when nothing searchable is left, so callers skip the FTS query entirely.
 */
export function buildMatchExpression(terms: readonly string[], op: 'OR' | 'AND'): string | undefined {
  const quoted = terms.map(quoteFtsTerm).filter((q) => q !== '""');
  if (quoted.length === 0) return undefined;
  return quoted.join(` ${op} `);
}

/**
 * The non-probing operator: three terms or fewer are joined with AND,
 * more with OR.
 */
export function plainOperator(termCount: number): 'OR' | 'AND' {
  return termCount <= 3 ? 'AND' : 'OR';
}
