/**
 * Canonical entity names (docs/extraction.md): an alias table maps the names people write for the
 * same thing (`JS`, `js`, `Postgres`, `psql`, `k8s`) to one canonical name, after case and
 * punctuation folding (`Node.js`, `nodejs`, `node-js` fold to the same key). Users extend the table
 * with the `agentMemory.extraction.aliases` setting (alias → canonical name); the extractors, the
 * CLI and the merge maintenance task all resolve names through it.
 */

import type { ExtractionPayload } from './contract';

/** The built-in aliases: alias → canonical name. */
export const DEFAULT_ENTITY_ALIASES: Readonly<Record<string, string>> = {
  js: 'JavaScript', javascript: 'JavaScript', ecmascript: 'JavaScript',
  typescript: 'TypeScript',
  py: 'Python', python: 'Python', python3: 'Python',
  postgres: 'PostgreSQL', postgresql: 'PostgreSQL', psql: 'PostgreSQL',
  k8s: 'Kubernetes', kubernetes: 'Kubernetes',
  node: 'Node.js', nodejs: 'Node.js',
  golang: 'Go',
  mongo: 'MongoDB', mongodb: 'MongoDB',
  mysql: 'MySQL', sqlite: 'SQLite', sqlite3: 'SQLite', redis: 'Redis',
  react: 'React', reactjs: 'React', vue: 'Vue', vuejs: 'Vue', angular: 'Angular', angularjs: 'AngularJS',
  nextjs: 'Next.js', nestjs: 'NestJS', expressjs: 'Express', express: 'Express',
  github: 'GitHub', gitlab: 'GitLab', vscode: 'VS Code',
  docker: 'Docker', dockerfile: 'Dockerfile', kafka: 'Kafka', graphql: 'GraphQL', grpc: 'gRPC',
  eslint: 'ESLint', npm: 'npm', pnpm: 'pnpm', yarn: 'Yarn', esbuild: 'esbuild', webpack: 'webpack', vite: 'Vite',
  csharp: 'C#', cpp: 'C++', cplusplus: 'C++', dotnet: '.NET',
  aws: 'AWS', gcp: 'GCP', azure: 'Azure', tensorflow: 'TensorFlow', pytorch: 'PyTorch', onnx: 'ONNX',
};

/**
 * Folding key of a name: lowercase, every run of spaces, dots, hyphens and underscores removed and
 * trailing call parentheses dropped (`Node.js` → `nodejs`, `Type Script` → `typescript`,
 * `parseArgs()` → `parseargs`). Names that differ only in such punctuation are one entity.
 */
export function foldName(name: string): string {
  return name.trim().toLowerCase().replace(/\(\)$/, '').replace(/[\s._-]+/g, '');
}

/** Alias → canonical lookup built from the defaults plus the user's table (the user wins). */
export interface AliasResolver {
  /** The canonical name for `name`, or `name` itself (trimmed, whitespace collapsed) when no alias matches. */
  canonical(name: string): string;
  /** True when `name` is an alias or canonical name in the table. */
  known(name: string): boolean;
}

export function createAliasResolver(user: Readonly<Record<string, string>> = {}): AliasResolver {
  const table = new Map<string, string>();
  for (const [alias, canon] of Object.entries(DEFAULT_ENTITY_ALIASES)) { table.set(foldName(alias), canon); table.set(foldName(canon), canon); }
  for (const [alias, canon] of Object.entries(user)) {
    const c = canon.trim().replace(/\s+/g, ' ');
    if (!c || !alias.trim()) continue;
    table.set(foldName(alias), c);
    table.set(foldName(c), c);
  }
  return {
    canonical: (name) => table.get(foldName(name)) ?? name.trim().replace(/\s+/g, ' '),
    known: (name) => table.has(foldName(name)),
  };
}

export const DEFAULT_ALIAS_RESOLVER = createAliasResolver();

const resolvers = new WeakMap<object, AliasResolver>();
/** The resolver of a user table, built once per table object. */
export function aliasResolverFor(user: Readonly<Record<string, string>>): AliasResolver {
  let r = resolvers.get(user);
  if (!r) { r = createAliasResolver(user); resolvers.set(user, r); }
  return r;
}

/**
 * A payload with every entity name replaced by its canonical name: entities that become the same
 * name are declared once (the first type wins), relations and facts follow their entities, and a
 * relation whose two ends became one entity is dropped.
 */
export function canonicalizePayload(p: ExtractionPayload, aliases: AliasResolver): ExtractionPayload {
  if (!p.entities?.length) return p;
  const key = (n: string): string => n.trim().replace(/\s+/g, ' ').toLowerCase();
  const seen = new Set<string>();
  const entities = p.entities.flatMap((e) => {
    const name = aliases.canonical(e.name);
    if (seen.has(key(name))) return [];
    seen.add(key(name));
    return [{ ...e, name }];
  });
  const relations = (p.relations ?? []).map((r) => ({ ...r, from: aliases.canonical(r.from), to: aliases.canonical(r.to) })).filter((r) => key(r.from) !== key(r.to));
  const facts = (p.facts ?? []).map((f) => ({ ...f, entity: aliases.canonical(f.entity) }));
  return {
    entities,
    ...(relations.length ? { relations } : {}),
    ...(facts.length ? { facts } : {}),
  };
}
