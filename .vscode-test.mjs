// For people with a desktop VS Code: runs the same integration suite with @vscode/test-cli
// (@vscode/test-electron underneath). CI and `npm test` use code-server instead
// (scripts/vscode/runIntegration.mjs), because VS Code cannot be downloaded on those machines.
// Before running: `npm run build && node scripts/vscode/buildIntegrationTests.mjs &&
// node scripts/package.mjs --fixtures` (compiles out/test/integration, packages the fake LM VSIX),
// then `npx vscode-test`. Set VSCODE_EXECUTABLE to a local VS Code binary to skip the download.
import { defineConfig } from '@vscode/test-cli';

export default defineConfig({
  label: 'integration',
  files: 'out/test/integration/**/*.test.js',
  version: '1.104.0',
  ...(process.env.VSCODE_EXECUTABLE ? { useInstallation: { fromPath: process.env.VSCODE_EXECUTABLE } } : {}),
  workspaceFolder: 'test/fixtures/demoWorkspace',
  installExtensions: ['out/vsix/fake-language-model.vsix'],
  mocha: { ui: 'bdd', timeout: 60_000 },
  launchArgs: ['--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
});
