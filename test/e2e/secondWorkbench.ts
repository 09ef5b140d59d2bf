/**
 * A second VS Code window on its own machine profile, for tests that need two people: its own
 * code-server (own user settings, so its own `agentMemory.store.path`, and its own secret storage)
 * with the packaged extension installed, shown in a new page of the test's browser. close() stops
 * the server and removes the profile, so nothing stays behind (the harness checks).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type * as CodeServerModule from '../../scripts/vscode/codeServer.mjs' with { 'resolution-mode': 'import' };
import type { CodeServer, Profile } from '../../scripts/vscode/codeServer.mjs' with { 'resolution-mode': 'import' };
import { waitForWorkbench } from './workbench';

// runE2e.mjs loads the tests with tsx from a data: URL, where only __filename is the real path
// and a relative import() of an .mjs does not resolve: both paths are built from __filename.
const REPO = join(dirname(__filename), '..', '..');
/** The extension VSIX runE2e.mjs packaged for this run (scripts/vscode/vsix.mjs EXTENSION_VSIX). */
const EXTENSION_VSIX = join(REPO, 'out', 'vsix', 'agent-memory.vsix');

/** The quiet user settings createProfile wrote. */
function readSettings(profile: Profile): Record<string, unknown> {
  return JSON.parse(readFileSync(join(profile.userData, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
}

const loadCodeServer = async (): Promise<typeof CodeServerModule> => await import(pathToFileURL(join(REPO, 'scripts', 'vscode', 'codeServer.mjs')).href) as typeof CodeServerModule;

export interface SecondWorkbench {
  readonly page: Page;
  readonly profileDir: string;
  /** Saves test-results/e2e-<name>.png of this window and returns its path. */
  screenshot(name: string): Promise<string>;
  /** The content frame of the webview an extension shows in this window. */
  webview(extensionId: string): ReturnType<Page['frameLocator']>;
  close(): Promise<void>;
}

/**
 * Starts the second window. `settings(profileDir)` gives its user settings (a store folder inside
 * the profile is removed with it); `folderName` names the workspace folder it opens (a memory's
 * project is the workspace name).
 */
export async function openSecondWorkbench(opener: Page, settings: (profileDir: string) => Record<string, unknown>, folderName: string): Promise<SecondWorkbench> {
  const { createProfile, installExtension, removeProfile, startCodeServer, workbenchUrl } = await loadCodeServer();
  const profile: Profile = createProfile('e2e-second');
  const own = settings(profile.dir);
  writeFileSync(join(profile.userData, 'User', 'settings.json'), JSON.stringify({ ...readSettings(profile), ...own }, null, 2) + '\n');
  // code-server is a remote window: machine-scoped settings (agentMemory.store.path) belong in the
  // server's Machine settings. VS Code reads them from the User file at start but drops them when it
  // recomputes the configuration after any settings write, which would reopen the default store.
  mkdirSync(join(profile.userData, 'Machine'), { recursive: true });
  writeFileSync(join(profile.userData, 'Machine', 'settings.json'), JSON.stringify(own, null, 2) + '\n');
  let server: CodeServer | undefined;
  let page: Page | undefined;
  const close = async (): Promise<void> => {
    await page?.close().catch(() => undefined);
    try {
      await server?.stop();
    } finally {
      removeProfile(profile);
    }
  };
  try {
    await installExtension(profile, EXTENSION_VSIX);
    const folder = join(profile.dir, folderName);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'README.md'), `# ${folderName}\n`);
    server = await startCodeServer(profile);
    page = await opener.context().newPage();
    await page.goto(workbenchUrl(server, { folder }), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await waitForWorkbench(page);
    const p = page;
    return {
      page: p, profileDir: profile.dir, close,
      async screenshot(name) {
        const file = join(REPO, 'test-results', `e2e-${name}.png`);
        mkdirSync(dirname(file), { recursive: true });
        await p.screenshot({ path: file });
        console.log(`  screenshot: test-results/e2e-${name}.png`);
        return file;
      },
      webview: (extensionId) => p.frameLocator(`iframe.webview[src*="extensionId=${extensionId}"]`).frameLocator('#active-frame'),
    };
  } catch (e) {
    await close().catch(() => undefined);
    throw e;
  }
}
