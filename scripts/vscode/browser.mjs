// Headless Debian Chromium driven by playwright-core (Playwright's own browser download is
// unreachable here). The browser profile lives inside the code-server profile folder, so the
// leftover-process check of the server also covers the browser.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { CHROMIUM_PATH } from './toolchain.mjs';

const require = createRequire(import.meta.url);

export const CHROMIUM_ARGS = Object.freeze([
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage', '--disable-crash-reporter', '--disable-breakpad',
]);

/** Launches Chromium with a fresh user-data dir under profile.dir; returns {context, page, close()}. */
export async function launchBrowser(profile, { viewport = { width: 1400, height: 900 } } = {}) {
  const { chromium } = require('playwright-core');
  const context = await chromium.launchPersistentContext(join(profile.dir, 'chromium'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport,
    timeout: 60_000,
    // Chromium's helpers (crash handler) otherwise write under ~/.config and ~/.cache.
    env: { ...process.env, XDG_CONFIG_HOME: join(profile.dir, 'chromium-xdg', 'config'), XDG_CACHE_HOME: join(profile.dir, 'chromium-xdg', 'cache') },
  });
  const page = context.pages()[0] ?? await context.newPage();
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
    },
  };
}
