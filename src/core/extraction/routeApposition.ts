/**
 * An HTTP route written beside the name of the route it is ("a `mark as read` route
 * (POST /books/{id}/read)", "GET /books (the list endpoint)") names one thing, not two: the route
 * mention is dropped and the name kept, so the sentence's facts attach to one entity
 * (docs/extraction.md, "Canonical names"). Only an apposition in parentheses right next to the
 * name counts; a route mentioned elsewhere in the sentence stays its own mention.
 */
import type { Mention } from './entityMentions';

/** A whole mention that is an HTTP route: a method and a path. */
const ROUTE_MENTION_RE = /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\/\S*$/;
/** Between a name and its route in parentheses: a closing backtick, a kind word, the opening parenthesis. */
const NAME_THEN_ROUTE_RE = /^`?\s*(?:route|endpoint|handler|api)?\s*\(\s*`?$/i;
const AFTER_ROUTE_RE = /^`?\s*\)/;
/** Between a route and a name in parentheses: the opening parenthesis, an article, an opening backtick. */
const ROUTE_THEN_NAME_RE = /^`?\s*\(\s*(?:the\s+|a\s+|an\s+)?`?$/i;
const AFTER_NAME_RE = /^`?\s*(?:route|endpoint|handler)?\s*\)/i;

const isRoute = (m: Mention): boolean => ROUTE_MENTION_RE.test(m.name);

/** The sentence's mentions without a route that stands in apposition to a named route. */
export function dropRouteAppositions(sentence: string, mentions: readonly Mention[]): Mention[] {
  const sorted = [...mentions].sort((a, b) => a.start - b.start);
  const dropped = new Set<Mention>();
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i] as Mention;
    const b = sorted[i + 1] as Mention;
    if (isRoute(a) === isRoute(b)) continue;
    const between = sentence.slice(a.end, b.start);
    const after = sentence.slice(b.end);
    if (!isRoute(a) && NAME_THEN_ROUTE_RE.test(between) && AFTER_ROUTE_RE.test(after)) dropped.add(b);
    else if (isRoute(a) && ROUTE_THEN_NAME_RE.test(between) && AFTER_NAME_RE.test(after)) dropped.add(a);
  }
  return dropped.size ? mentions.filter((m) => !dropped.has(m)) : [...mentions];
}
