// Types for npmEnv.mjs (imported by the unit tests).
export function isInheritedNpmState(name: string): boolean;
export function withoutInheritedNpmState(env?: NodeJS.ProcessEnv): Record<string, string>;
