// The environment for the toolchain's own npm runs (Node 24, code-server, vsce).
//
// `npm test` and `npm start` run this harness as an npm script, and npm exports its own state to
// scripts as environment variables. A nested npm reads `npm_config_*` variables as configuration,
// so without cleaning it would behave like the outer npm: its user agent would still name the outer
// Node (code-server's postinstall reads the Node version from `npm_config_user_agent` and refuses
// "node v20"), its prefix and local prefix would point into this repository, and `NODE` /
// `npm_node_execpath` would name the outer Node binary. Only these process-derived values are
// dropped; settings a person configured (registry, proxy, cafile, cache) are kept.

/** Variables npm derives from the npm process that runs a script, and that a nested npm must recompute. */
const DERIVED_CONFIG = new Set([
  'npm_config_user_agent',
  'npm_config_node_gyp',
  'npm_config_npm_version',
  'npm_config_global_prefix',
  'npm_config_local_prefix',
  'npm_config_prefix',
  'npm_config_nodedir',
  'npm_config_loglevel',
]);

/** True for a variable that describes the outer npm process or the script it is running. */
export function isInheritedNpmState(name) {
  const key = name.toLowerCase();
  return DERIVED_CONFIG.has(key)
    || key.startsWith('npm_package_')
    || key.startsWith('npm_lifecycle_')
    || key === 'npm_command'
    || key === 'npm_execpath'
    || key === 'npm_node_execpath'
    || name === 'NODE'
    || name === 'INIT_CWD';
}

/** A copy of env without the outer npm's process state (see the file comment). */
export function withoutInheritedNpmState(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => value !== undefined && !isInheritedNpmState(name)));
}
