/**
 * The one thing the team server modules need from a PostgreSQL connection: run a statement and get
 * its rows. A `pg` Client fits it; so does a PGlite instance behind a small adapter (the search and
 * migration tests run against PGlite's bundled pgvector, docs/team.md "Tests").
 */
export interface ServerSql {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}
