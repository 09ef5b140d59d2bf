// Types for installDiagnosis.mjs (imported by the unit tests).
export function diagnoseInstallFailure(output: string, options?: { expectedNode?: string; buildPackages?: readonly string[] }): string | undefined;
