// Builds three bundles: the extension host (cjs/node), the CLI (cjs/node) and the Knowledge
// webview (browser). Flags: --production (minify, no sourcemaps), --watch, --quiet.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const quiet = process.argv.includes('--quiet');

/** Modules resolved at run time from node_modules (native code, wasm loaders) or provided by the host. */
// pg-native: the optional native binding of `pg`, never installed (the pure-JS client is used).
const external = ['vscode', 'onnxruntime-node', 'fts5-sql-bundle', 'sharp', 'pg-native'];

/**
 * transformers.js (only the optional downloaded / user-folder models and the cross-encoder use it)
 * is bundled once into dist/transformers.js, which the other bundles load lazily from beside
 * themselves: the VSIX then ships neither its npm package nor the onnxruntime-web (120 MB of
 * WebAssembly builds it inlines the JS of but never loads in Node) and sharp (19 MB, images) it
 * depends on. docs/packaging.md.
 */
const transformersBesideUs = {
  name: 'transformers-beside-us',
  setup(b) {
    b.onResolve({ filter: /^@huggingface\/transformers$/ }, () => ({ path: './transformers.js', external: true }));
  },
};

/**
 * The MCP server (the SDK and zod, ~1.6 MB) is its own bundle, dist/mcpServe.js, that the CLI
 * requires only when `agent-memory mcp` serves (src/cli/commands/mcp.ts): every other command, the
 * agent hooks first of all, starts without parsing it.
 */
const mcpServeBesideUs = {
  name: 'mcp-serve-beside-us',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/mcpServe(\.js)?$/ }, (args) => (args.importer.endsWith(join('cli', 'commands', 'mcp.ts')) ? { path: './mcpServe.js', external: true } : undefined));
  },
};

/**
 * dist/cli.js is the small entry (src/cli/main.ts): a hook call its store's service answers
 * (src/cli/hookFastPath.ts) never loads the full CLI, which is dist/fullCli.js, required only
 * when needed (docs/agents.md, "Latency").
 */
const fullCliBesideUs = {
  name: 'full-cli-beside-us',
  setup(b) {
    b.onResolve({ filter: /^\.\/fullCli(\.js)?$/ }, (args) => (args.importer.endsWith(join('src', 'cli', 'main.ts')) ? { path: './fullCli.js', external: true } : undefined));
  },
};

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: quiet ? 'warning' : 'info',
  metafile: true,
};

/** Extra node entry points (workers) that other issues add; each builds to dist/<name>.js. */
const nodeEntries = {
  extension: 'src/extension/extension.ts',
  cli: 'src/cli/main.ts',
  fullCli: 'src/cli/fullCli.ts',
  mcpServe: 'src/cli/mcpServe.ts',
};
for (const f of existsSync('src/core/workers') ? readdirSync('src/core/workers') : []) {
  if (f.endsWith('Worker.ts')) nodeEntries[f.replace(/\.ts$/, '')] = join('src/core/workers', f);
}

const builds = [
  {
    ...common,
    entryPoints: nodeEntries,
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external,
    plugins: [transformersBesideUs, mcpServeBesideUs, fullCliBesideUs],
  },
  {
    // transformers.js's Node ESM build, made CommonJS; ONNX Runtime stays the shipped native one,
    // images are not supported (src/core/models/sharpUnavailable.cjs).
    ...common,
    entryPoints: { transformers: '@huggingface/transformers' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    conditions: ['node', 'import'],
    external: ['onnxruntime-node', 'onnxruntime-common'],
    alias: { sharp: './src/core/models/sharpUnavailable.cjs' },
    // Its `import.meta.url ?? __filename` falls back to __filename in CommonJS.
    logOverride: { 'empty-import-meta': 'silent' },
  },
  {
    ...common,
    entryPoints: { knowledge: 'webview/knowledge.ts' },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

mkdirSync('dist', { recursive: true });
// Data files the bundles read at run time from beside themselves instead of carrying them inline
// (the entity tagger's 1.8 MB of weights: src/core/extraction/entityMentions.ts).
copyFileSync('src/core/extraction/entityTaggerWeights.json', 'dist/entityTaggerWeights.json');
if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
  console.log('[esbuild] watching');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  const meta = { inputs: {}, outputs: {} };
  for (const r of results) { Object.assign(meta.inputs, r.metafile.inputs); Object.assign(meta.outputs, r.metafile.outputs); }
  writeFileSync('dist/meta.json', JSON.stringify(meta));
  if (existsSync('dist/cli.js')) {
    const { readFileSync, chmodSync } = await import('node:fs');
    const cli = readFileSync('dist/cli.js', 'utf8');
    if (!cli.startsWith('#!')) writeFileSync('dist/cli.js', '#!/usr/bin/env node\n' + cli);
    chmodSync('dist/cli.js', 0o755);
  }
  if (!quiet) {
    for (const [file, info] of Object.entries(meta.outputs)) if (!file.endsWith('.map')) console.log(`  ${file}  ${(info.bytes / 1024).toFixed(1)} KiB`);
  }
}
