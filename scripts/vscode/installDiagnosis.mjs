// Names the real cause of a failed npm install in the toolchain harness from its output, so the
// message a newcomer reads points at what to fix instead of a generic "needs the registry" guess.
// Pure (text in, text out) so each cause is unit-tested (test/unit/harness/installDiagnosis.test.ts).

/**
 * The likely cause of a failed `npm install` of a toolchain package, or undefined when the output
 * matches no known cause (the caller then shows its generic hint and the output's tail).
 * expectedNode is the pinned Node version the install must run under, e.g. "24.21.0".
 */
export function diagnoseInstallFailure(output, { expectedNode, buildPackages = [] } = {}) {
  const text = String(output);
  const wrongNode = /requires node v?(\d+)[\s\S]{0,200}?(?:detected|are on|found)[^\d]*v?(\d+(?:\.\d+)*)/i.exec(text);
  if (wrongNode) {
    return `The install script ran under Node ${wrongNode[2]} although Node ${expectedNode ?? wrongNode[1]} was first on PATH: `
      + 'a variable in the environment names another Node (for example npm_config_user_agent, NODE or npm_node_execpath '
      + 'left by an outer npm, or a version-manager shim). Run `env | grep -i -e node -e npm_` to find it, unset it, and retry.';
  }
  if (/\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH)\b/.test(text)) {
    return 'The npm registry could not be reached (network error in the output below); check `npm ping` and any proxy settings, then retry.';
  }
  if (/\bE40[13]\b|\b401 Unauthorized\b|\b403 Forbidden\b/.test(text)) {
    return 'The npm registry refused the request (401/403): check the registry and auth settings in your .npmrc.';
  }
  if (/\bENOSPC\b|no space left on device/i.test(text)) {
    return 'The disk is full (ENOSPC): code-server needs about 620 MB; free some space and retry.';
  }
  const missingHeader = /fatal error: ([\w./+-]+\.h): No such file or directory/.exec(text);
  if (missingHeader || /Package '?[\w.+-]+'?,? required by .*not found|pkg-config: (not found|command not found)/i.test(text)) {
    const what = missingHeader ? `the header ${missingHeader[1]} is missing` : 'a pkg-config package is missing';
    return `A native module could not be compiled: ${what}. Install the Debian build packages: apt-get install -y ${buildPackages.join(' ')} build-essential python3.`;
  }
  if (/not listed in allow-?scripts|install scripts? (were|was) skipped|ignored install scripts/i.test(text)) {
    return "npm skipped the package's install scripts (an allow-scripts or ignore-scripts policy); the harness allows them for its own cache folder only, so check that no .npmrc forces ignore-scripts=true.";
  }
  return undefined;
}
