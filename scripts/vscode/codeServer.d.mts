// Types for the parts of codeServer.mjs the e2e tests use (a second workbench: test/e2e/secondWorkbench.ts).
export interface Profile {
  readonly dir: string;
  readonly userData: string;
  readonly extensions: string;
  readonly serverLog: string;
}
export interface CodeServer {
  readonly port: number;
  readonly pid: number;
  readonly url: string;
  stop(): Promise<void>;
}
export function createProfile(label?: string, settings?: Record<string, unknown>): Profile;
export function removeProfile(profile: Profile): void;
export function installExtension(profile: Profile, vsix: string): Promise<void>;
export function startCodeServer(profile: Profile, options?: { port?: number; env?: Record<string, string> }): Promise<CodeServer>;
export function workbenchUrl(server: CodeServer, options?: { folder?: string }): string;
