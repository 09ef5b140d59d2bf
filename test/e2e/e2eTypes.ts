import type { FrameLocator, Page } from 'playwright-core';

/** What each e2e test gets: the workbench page and a screenshot helper (files go to test-results/). */
export interface E2eContext {
  readonly page: Page;
  /** Saves test-results/e2e-<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /** The content frame of the (single) webview an extension shows, by extension id. */
  webview(extensionId: string): FrameLocator;
  /** The throwaway code-server profile folder (user-data/, extensions/); the extension's default store lives under it. */
  readonly profileDir: string;
  /**
   * The fake language model's script file (its FAKE_LM_SCRIPT, read on every request; absent until
   * a spec writes it: default rules). Write a JSON array of rules (test/fixtures/fakeLanguageModel
   * README) to make the model answer; delete it to restore the defaults.
   */
  readonly fakeModelScript: string;
}

export interface E2eTest {
  readonly name: string;
  /**
   * False: the test runs in a workbench of its own without the fake language model (VS Code with no
   * chat model at all, as a new user has it). Default true.
   */
  readonly fakeModel?: boolean;
  run(ctx: E2eContext): Promise<void>;
}
