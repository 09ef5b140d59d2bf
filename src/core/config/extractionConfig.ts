/**
 * Extraction contract enums, LLM extraction limits, contradiction word lists and the heuristic
 * extractor's vocabulary (docs/extraction.md).
 */

/** Entity kinds a payload may declare (knowledge-graph types plus code-shaped kinds). */
export const ENTITY_TYPES = ['person', 'project', 'system', 'tool', 'concept', 'skill', 'task', 'event', 'file', 'package', 'url', 'symbol', 'format', 'unknown'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Edge kinds (dependency types plus the few the heuristic extractor produces). */
export const EDGE_KINDS = ['uses', 'depends_on', 'requires', 'owned_by', 'blocks', 'informs', 'part_of', 'replaces', 'preferred_over', 'related_to'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** Fact kinds (the extracted fact kinds plus `constraint`, which becomes a never-superseded attribute). */
export const FACT_TYPES = ['fact', 'preference', 'decision', 'rationale', 'procedural', 'semantic', 'constraint'] as const;
export type FactType = (typeof FACT_TYPES)[number];

export interface ContradictionConfig {
  /** Minimum shared tokens before the syntactic check looks further (default 2). */
  readonly syntacticMinOverlap: number;
  /** Minimum shared tokens before the LLM is asked (default 3). */
  readonly semanticMinOverlap: number;
  /** Setting semanticContradictionEnabled (default true). */
  readonly semanticEnabled: boolean;
  /** semanticContradictionTimeoutMs (default 120 000, range 5 000–300 000). */
  readonly semanticTimeoutMs: number;
  /** A contradiction counts for blocking or superseding from this confidence (default 0.7). */
  readonly minConfidence: number;
  readonly negationTokens: readonly string[];
  /** Narrow list used on update proposals. */
  readonly antonymPairs: readonly (readonly [string, string])[];
}

export const DEFAULT_NEGATION_TOKENS = ['not', 'no', 'never', 'cannot', 'cant', 'doesnt', 'dont', 'isnt', 'wasnt', 'wont', 'without'] as const;

export const DEFAULT_ANTONYM_PAIRS: readonly (readonly [string, string])[] = [
  ['enabled', 'disabled'], ['allow', 'deny'], ['accept', 'reject'], ['always', 'never'], ['on', 'off'], ['true', 'false'],
];

export const DEFAULT_CONTRADICTION_CONFIG: ContradictionConfig = {
  syntacticMinOverlap: 2,
  semanticMinOverlap: 3,
  semanticEnabled: true,
  semanticTimeoutMs: 120_000,
  minConfidence: 0.7,
  negationTokens: DEFAULT_NEGATION_TOKENS,
  antonymPairs: DEFAULT_ANTONYM_PAIRS,
};

/**
 * The workspace's own names (src/core/extraction/workspaceNames.ts): not a setting, the hosts read
 * them from the open folder (extension) or `--workspace DIR` (CLI). Empty by default.
 */
export interface WorkspaceNames {
  /** Dependency names as the manifests spell them: exact mentions of type `package`. */
  readonly dependencies: readonly string[];
  /** File, folder and symbol names: the tagger's gazetteer feature only. */
  readonly names: readonly string[];
}

export interface ExtractionConfig {
  /** Inputs longer than this are truncated before prompting (default 12 000). */
  readonly maxInputChars: number;
  /** LLM extraction timeout (one fixed value, 5 s–300 s). */
  readonly llmTimeoutMs: number;
  /** Per-payload caps (default facts ≤ 20, entities ≤ 15). */
  readonly maxFacts: number;
  /**
   * Heuristic extractor: a sentence that names an entity but matches no decision, preference,
   * migration, dependency or constraint pattern becomes a plain fact under the `general` aspect
   * of its first named entity, so most memories reach the graph (attributes are what aspect
   * feedback and currentness attach to). Off for transcript turn selection.
   */
  readonly generalFacts: boolean;
  readonly maxEntities: number;
  readonly maxRelations: number;
  /** Name length bounds for declared entities (default 1..24; widened for paths and URLs). */
  readonly maxEntityNameChars: number;
  readonly maxContentChars: number;
  /**
   * The user's entity aliases, alias → canonical name (setting `agentMemory.extraction.aliases`),
   * on top of the built-in table in src/core/extraction/entityAliases.ts. Up to 500 entries.
   */
  readonly aliases: Readonly<Record<string, string>>;
  readonly contradiction: ContradictionConfig;
  /** The workspace gazetteer (docs/extraction.md, "Workspace gazetteer"). */
  readonly workspace: WorkspaceNames;
}

export const DEFAULT_EXTRACTION_CONFIG: ExtractionConfig = {
  maxInputChars: 12_000,
  llmTimeoutMs: 60_000,
  maxFacts: 20,
  generalFacts: true,
  maxEntities: 15,
  maxRelations: 30,
  maxEntityNameChars: 200,
  maxContentChars: 2_000,
  aliases: {},
  contradiction: DEFAULT_CONTRADICTION_CONFIG,
  workspace: { dependencies: [], names: [] },
};

/** Keeps string → non-empty string pairs (names up to 200 characters), at most 500 of them. */
export function resolveAliases(raw: unknown): Readonly<Record<string, string>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return DEFAULT_EXTRACTION_CONFIG.aliases;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>).slice(0, 500)) {
    if (typeof v !== 'string' || !k.trim() || !v.trim() || k.length > 200 || v.length > 200) continue;
    out[k.trim()] = v.trim();
  }
  return out;
}

const clamp = (v: number | undefined, lo: number, hi: number, dflt: number): number =>
  v === undefined || !Number.isFinite(v) ? dflt : Math.min(hi, Math.max(lo, v));

export function resolveContradictionConfig(p: Partial<ContradictionConfig> = {}): ContradictionConfig {
  const d = DEFAULT_CONTRADICTION_CONFIG;
  return {
    syntacticMinOverlap: Math.round(clamp(p.syntacticMinOverlap, 1, 10, d.syntacticMinOverlap)),
    semanticMinOverlap: Math.round(clamp(p.semanticMinOverlap, 1, 10, d.semanticMinOverlap)),
    semanticEnabled: p.semanticEnabled ?? d.semanticEnabled,
    semanticTimeoutMs: Math.round(clamp(p.semanticTimeoutMs, 5_000, 300_000, d.semanticTimeoutMs)),
    minConfidence: clamp(p.minConfidence, 0, 1, d.minConfidence),
    negationTokens: (p.negationTokens ?? d.negationTokens).map((t) => t.toLowerCase()),
    antonymPairs: (p.antonymPairs ?? d.antonymPairs).map(([a, b]) => [a.toLowerCase(), b.toLowerCase()] as const),
  };
}

export function resolveExtractionConfig(p: Partial<Omit<ExtractionConfig, 'contradiction'>> & { contradiction?: Partial<ContradictionConfig> } = {}): ExtractionConfig {
  const d = DEFAULT_EXTRACTION_CONFIG;
  return {
    maxInputChars: Math.round(clamp(p.maxInputChars, 500, 100_000, d.maxInputChars)),
    llmTimeoutMs: Math.round(clamp(p.llmTimeoutMs, 5_000, 300_000, d.llmTimeoutMs)),
    maxFacts: Math.round(clamp(p.maxFacts, 1, 100, d.maxFacts)),
    generalFacts: typeof p.generalFacts === 'boolean' ? p.generalFacts : d.generalFacts,
    maxEntities: Math.round(clamp(p.maxEntities, 1, 100, d.maxEntities)),
    maxRelations: Math.round(clamp(p.maxRelations, 1, 200, d.maxRelations)),
    maxEntityNameChars: Math.round(clamp(p.maxEntityNameChars, 24, 500, d.maxEntityNameChars)),
    maxContentChars: Math.round(clamp(p.maxContentChars, 80, 20_000, d.maxContentChars)),
    aliases: p.aliases === undefined ? d.aliases : resolveAliases(p.aliases),
    contradiction: resolveContradictionConfig(p.contradiction),
    workspace: p.workspace === undefined ? d.workspace : {
      // Bounded: a monorepo's thousands of names would make the mention pattern slow.
      dependencies: p.workspace.dependencies.filter((n) => n.trim().length >= 2 && n.length <= 200).slice(0, 2000),
      names: p.workspace.names.filter((n) => n.trim().length >= 3 && n.length <= 200).slice(0, 5000),
    },
  };
}

/**
 * Technology terms the heuristic extractor recognises, with the claim slot each fills. Two terms
 * in the same category compete for the same claim (so "uses PostgreSQL" then "migrated to
 * MongoDB" supersedes); terms in different categories coexist.
 */
export const DEFAULT_TECH_TERMS: Readonly<Record<string, string>> = {
  postgresql: 'database', postgres: 'database', mysql: 'database', mariadb: 'database', sqlite: 'database', mongodb: 'database',
  dynamodb: 'database', cassandra: 'database', oracle: 'database', 'sql server': 'database', cockroachdb: 'database', supabase: 'database',
  redis: 'cache', memcached: 'cache',
  kafka: 'queue', rabbitmq: 'queue', sqs: 'queue', nats: 'queue',
  elasticsearch: 'search', opensearch: 'search', meilisearch: 'search',
  typescript: 'language', javascript: 'language', python: 'language', rust: 'language', golang: 'language', java: 'language',
  kotlin: 'language', swift: 'language', ruby: 'language', 'c#': 'language', 'c++': 'language', php: 'language',
  react: 'ui_framework', vue: 'ui_framework', angular: 'ui_framework', svelte: 'ui_framework', solid: 'ui_framework',
  'next.js': 'web_framework', nextjs: 'web_framework', express: 'web_framework', fastify: 'web_framework', django: 'web_framework',
  flask: 'web_framework', fastapi: 'web_framework', rails: 'web_framework', nestjs: 'web_framework', spring: 'web_framework',
  'node.js': 'runtime', nodejs: 'runtime', node: 'runtime', deno: 'runtime', bun: 'runtime',
  npm: 'package_manager', pnpm: 'package_manager', yarn: 'package_manager', pip: 'package_manager', poetry: 'package_manager', cargo: 'package_manager',
  webpack: 'bundler', esbuild: 'bundler', vite: 'bundler', rollup: 'bundler', parcel: 'bundler',
  jest: 'test_framework', mocha: 'test_framework', vitest: 'test_framework', pytest: 'test_framework', playwright: 'e2e_framework', cypress: 'e2e_framework',
  eslint: 'linter', prettier: 'formatter', biome: 'linter',
  docker: 'container', podman: 'container', kubernetes: 'orchestrator', k8s: 'orchestrator', terraform: 'infrastructure',
  aws: 'cloud', gcp: 'cloud', azure: 'cloud', vercel: 'hosting', netlify: 'hosting', heroku: 'hosting',
  github: 'vcs_host', gitlab: 'vcs_host', bitbucket: 'vcs_host', git: 'vcs',
  graphql: 'api_style', grpc: 'api_style', rest: 'api_style',
  nginx: 'web_server', apache: 'web_server', caddy: 'web_server',
  prisma: 'orm', typeorm: 'orm', sequelize: 'orm', drizzle: 'orm', sqlalchemy: 'orm',
  onnx: 'ml_runtime', pytorch: 'ml_framework', tensorflow: 'ml_framework',
};

/** Capitalised words that are never entities on their own (sentence openers, pronouns). */
export const DEFAULT_NAME_STOPWORDS: readonly string[] = [
  'The', 'A', 'An', 'We', 'I', 'You', 'He', 'She', 'It', 'They', 'This', 'That', 'These', 'Those', 'Our', 'My', 'Your', 'Their',
  'If', 'When', 'Then', 'But', 'And', 'Or', 'So', 'Also', 'Now', 'Today', 'Yesterday', 'Tomorrow', 'Please', 'Note', 'Yes', 'No',
  'Always', 'Never', 'Must', 'Should', 'Use', 'Uses', 'Do', 'Dont', 'Don', 'Let', 'After', 'Before', 'Because', 'Since', 'For',
  'In', 'On', 'At', 'To', 'From', 'With', 'Without', 'Of', 'As', 'By', 'Is', 'Are', 'Was', 'Were', 'Be', 'Not', 'All', 'Some',
  'There', 'Here', 'What', 'Why', 'How', 'Which', 'Who', 'Where', 'OK', 'Ok', 'TODO', 'Monday', 'Tuesday', 'Wednesday', 'Thursday',
  'Friday', 'Saturday', 'Sunday', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December', 'Prefer', 'Migrated', 'Switched', 'Decided', 'Chose',
];

/**
 * Single words that never become entities whatever their casing: weekdays and months
 * (plurals too), greetings and hedges, HTTP verbs, and all-caps words of ordinary prose or config
 * (`UTC`, `ISO`, `PORT`, `CHECK`). Lowercase; matched against whole one-word names.
 */
/**
 * Names whose type is known whatever the tagger guessed (docs/extraction.md, "Types"): data formats
 * are formats, not tools or concepts; generic architecture words are concepts, not packages or tools.
 */
export const DEFAULT_TERM_TYPES: Readonly<Record<string, EntityType>> = {
  json: 'format', jsonl: 'format', yaml: 'format', yml: 'format', toml: 'format', csv: 'format', tsv: 'format', xml: 'format',
  markdown: 'format', protobuf: 'format', parquet: 'format', avro: 'format', ini: 'format', 'iso-8601': 'format',
  api: 'concept', wal: 'concept', cli: 'concept', ui: 'concept', orm: 'concept', crud: 'concept',
};

export const DEFAULT_NEVER_ENTITIES: readonly string[] = [
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'weekend', 'today', 'tomorrow', 'yesterday', 'tonight',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'maybe', 'thanks', 'thank', 'hi', 'hello', 'hey', 'yes', 'no', 'ok', 'okay', 'sure', 'please', 'sorry', 'wow', 'yeah', 'great', 'cool', 'nice',
  'get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'utc', 'gmt', 'iso', 'port', 'check', 'todo', 'fixme', 'note', 'edit', 'update',
  'true', 'false', 'null', 'none', 'eta', 'asap', 'fyi', 'imo', 'btw',
];

/**
 * Everyday software nouns the tagger learned to mark in some contexts ("the server", "the client"),
 * dropped when tagged in lowercase on their own: in a memory they name a role, not a thing a
 * developer would look up in the graph. Capitalised or part of a longer name they stay.
 */
export const DEFAULT_GENERIC_NOUNS: readonly string[] = [
  'server', 'servers', 'api', 'app', 'apps', 'application', 'id', 'log', 'logs', 'layout', 'user', 'users', 'service', 'system', 'file', 'files', 'code', 'page',
  'folder', 'directory', 'project', 'script', 'settings', 'error', 'session', 'shell', 'browser', 'terminal', 'console', 'laptop', 'machine', 'computer',
];

/** Technology terms that are also common words: recognised only when written with a capital. */
export const DEFAULT_AMBIGUOUS_TECH_TERMS: readonly string[] = [
  'node', 'rest', 'solid', 'express', 'spring', 'rails', 'apache', 'oracle', 'swift', 'ruby', 'bun', 'parcel', 'jest', 'mocha',
  'git', 'pip', 'cargo', 'poetry', 'caddy', 'biome', 'drizzle', 'vue', 'rust', 'java',
];
