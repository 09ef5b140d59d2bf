/**
 * The workspace's own names as an extraction gazetteer (docs/extraction.md, "Workspace
 * gazetteer"): dependencies from package.json / pyproject.toml / requirements.txt / go.mod /
 * Cargo.toml, file and folder names, and symbols the editor knows. Issues, READMEs and commit
 * messages name the project's dependencies in lowercase ("we validate with zod"), where neither the
 * capitalisation rules nor the StackOverflow-trained tagger see a name.
 *
 * Dependency names become exact mentions (type `package`, matched as whole words; ambiguous English
 * words only when written with a capital or in code shape); every name also sets the tagger's
 * gazetteer feature. Reading is bounded (depth, entries, bytes) and never throws on a bad manifest.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { basename, join } from 'node:path';

import type { WorkspaceNames } from '../config/extractionConfig';

/** Folders never walked (vendored, generated or hidden). */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', 'build', 'target', 'vendor', 'coverage', '__pycache__', 'venv', '.venv', 'site-packages']);
/** Folder and file names too generic to be a name of this project. */
const GENERIC = new Set(['src', 'lib', 'test', 'tests', 'spec', 'docs', 'doc', 'bin', 'scripts', 'script', 'public', 'assets', 'static', 'config', 'configs',
  'examples', 'example', 'fixtures', 'data', 'tmp', 'temp', 'index', 'main', 'app', 'utils', 'util', 'helpers', 'types', 'common', 'shared', 'core', 'internal',
  'pkg', 'cmd', 'api', 'readme', 'license', 'changelog', 'contributing', 'makefile', 'dockerfile', 'package', 'tsconfig', 'setup', 'init', 'mod', 'models', 'model',
  'media', 'images', 'img', 'styles', 'css', 'results', 'bench', 'benchmarks', 'tools', 'components', 'pages', 'server', 'client', 'web', 'views', 'view']);

const MAX_ENTRIES = 4000;
const MAX_DEPTH = 4;
const MAX_MANIFEST_BYTES = 512 * 1024;

/** Dependency names of a package.json (dependencies, devDependencies, peer and optional). */
export function namesFromPackageJson(text: string): string[] {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const out: string[] = [];
    for (const k of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const deps = v[k];
      if (deps && typeof deps === 'object' && !Array.isArray(deps)) out.push(...Object.keys(deps));
    }
    return out;
  } catch {
    return [];
  }
}

const PEP508_NAME = /^\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)/;

/** Dependency names of a pyproject.toml (PEP 621 lists and Poetry tables), one regex pass, no TOML parser. */
export function namesFromPyproject(text: string): string[] {
  const out: string[] = [];
  let section = '';
  let inList = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const head = /^\[([^\]]+)\]$/.exec(line);
    if (head) { section = head[1] as string; inList = false; continue; }
    if (/^(dependencies|requires|optional-dependencies\.\w+|dev)\s*=\s*\[/.test(line) || (section.startsWith('project.optional-dependencies') && /=\s*\[/.test(line))) inList = true;
    if (inList) {
      for (const m of line.matchAll(/["']([A-Za-z0-9][A-Za-z0-9._-]*)[^"']*["']/g)) out.push(m[1] as string);
      if (line.includes(']')) inList = false;
      continue;
    }
    if (/^tool\.poetry\.(dev-)?dependencies$|^tool\.poetry\.group\.[\w-]+\.dependencies$/.test(section)) {
      const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*=/.exec(line);
      if (m && m[1] !== 'python') out.push(m[1] as string);
    }
  }
  return out;
}

/** Names of a requirements.txt. */
export function namesFromRequirements(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => !/^\s*(#|-)/.test(l)).map((l) => PEP508_NAME.exec(l)?.[1]).filter((n): n is string => n !== undefined);
}

/** Module paths of a go.mod `require` (their last element is the name people write: `cobra`). */
export function namesFromGoMod(text: string): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (/^require\s*\($/.test(line)) { inBlock = true; continue; }
    if (inBlock && line === ')') { inBlock = false; continue; }
    const m = inBlock ? /^(\S+)\s+v\S+/.exec(line) : /^require\s+(\S+)\s+v\S+/.exec(line);
    if (m) {
      const path = m[1] as string;
      out.push(path);
      const last = path.split('/').filter((p) => !/^v\d+$/.test(p)).pop();
      if (last && last !== path) out.push(last);
    }
  }
  return out;
}

/** Crate names of a Cargo.toml's dependency tables. */
export function namesFromCargoToml(text: string): string[] {
  const out: string[] = [];
  let deps = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const head = /^\[([^\]]+)\]$/.exec(line);
    if (head) {
      const s = head[1] as string;
      const sub = /^(?:target\.[^.]+\.)?(?:dev-|build-)?dependencies(?:\.([A-Za-z0-9_-]+))?$/.exec(s);
      deps = sub !== null && sub[1] === undefined;
      if (sub?.[1]) out.push(sub[1]);
      continue;
    }
    if (!deps) continue;
    const m = /^([A-Za-z0-9_-]+)\s*=/.exec(line);
    if (m) out.push(m[1] as string);
  }
  return out;
}

const MANIFESTS: Readonly<Record<string, (text: string) => string[]>> = {
  'package.json': namesFromPackageJson,
  'pyproject.toml': namesFromPyproject,
  'requirements.txt': namesFromRequirements,
  'go.mod': namesFromGoMod,
  'Cargo.toml': namesFromCargoToml,
};

function readSmall(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_MANIFEST_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A file or folder name worth a gazetteer entry: not generic, not hidden, at least 3 characters. */
function nameOf(entry: string, isDir: boolean): string | undefined {
  if (entry.startsWith('.')) return undefined;
  const stem = isDir ? entry : entry.replace(/\.[^.]+$/, '').replace(/\.(test|spec|d)$/, '');
  if (stem.length < 3 || GENERIC.has(stem.toLowerCase()) || /^\d/.test(stem)) return undefined;
  return stem;
}

/**
 * Reads a workspace folder: the manifests of the folder and of its sub-folders (monorepos), file
 * and folder names to depth 4, at most 4,000 entries. A missing or unreadable folder gives no names.
 */
export function readWorkspaceNames(root: string, extraNames: readonly string[] = []): WorkspaceNames {
  const deps = new Set<string>();
  const names = new Set<string>();
  let seen = 0;
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return;
      const isDir = e.isDirectory();
      if (isDir && (SKIP_DIRS.has(e.name) || e.name.startsWith('.'))) continue;
      const parse = !isDir ? MANIFESTS[e.name] : undefined;
      if (parse) {
        const text = readSmall(join(dir, e.name));
        if (text !== undefined) for (const n of parse(text)) deps.add(n);
      }
      const n = nameOf(e.name, isDir);
      if (n) names.add(n);
      if (isDir && depth < MAX_DEPTH) walk(join(dir, e.name), depth + 1);
    }
  };
  try { if (!statSync(root).isDirectory()) return { dependencies: [], names: [] }; } catch { return { dependencies: [], names: [] }; }
  walk(root, 0);
  const rootName = nameOf(basename(root), true);
  if (rootName) names.add(rootName);
  for (const n of extraNames) if (n.trim().length >= 3) names.add(n.trim());
  return { dependencies: [...deps].sort(), names: [...names].sort() };
}
