/**
 * The settings contract: every contributed `agentMemory.*` setting has at least one test proving
 * that changing it changes behaviour through the real code. Contract files register their tests
 * here (`settingContract`); settingsContract.test.ts loads them all and fails for any contributed
 * key without one.
 */
const covered = new Map<string, string[]>();

/** Declares one behaviour test for `key` (without `agentMemory.`). */
export function settingContract(key: string, behaviour: string, fn: () => Promise<void> | void): void {
  covered.set(key, [...(covered.get(key) ?? []), behaviour]);
  it(`agentMemory.${key}: ${behaviour}`, fn);
}

export function coveredSettings(): ReadonlyMap<string, readonly string[]> {
  return covered;
}
