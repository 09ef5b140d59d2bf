import { strict as assert } from 'node:assert';
import { WarmUpHolds } from '../../../src/extension/host/warmUpHolds';
import type { HoldTimers } from '../../../src/extension/host/warmUpHolds';

/** Timers the test fires by hand: which caps are pending, and which were cleared. */
function manualTimers(): HoldTimers & { fire(): void; pending(): number } {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    setTimeout: (fn) => { const id = next++; timers.set(id, fn); return id; },
    clearTimeout: (id) => { timers.delete(id as number); },
    fire: () => { const fns = [...timers.values()]; timers.clear(); for (const fn of fns) fn(); },
    pending: () => timers.size,
  };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

function deferred(): { promise: Promise<void>; resolve(): void; reject(e: Error): void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((a, b) => { resolve = a; reject = b; });
  return { promise, resolve, reject };
}

describe('Warm-up holds (the model warm-up waits for a loading Knowledge panel: issue #27)', () => {
  it('is free at once without a hold', async () => {
    const holds = new WarmUpHolds(10_000, manualTimers());
    let free = false;
    void holds.whenFree().then(() => { free = true; });
    await flush();
    assert.equal(free, true);
  });

  it('waits for every hold, including one added while it waited, and clears each cap', async () => {
    const timers = manualTimers();
    const holds = new WarmUpHolds(10_000, timers);
    const a = deferred();
    const b = deferred();
    holds.hold(a.promise);
    let free = false;
    void holds.whenFree().then(() => { free = true; });
    holds.hold(b.promise);
    assert.equal(holds.size, 2);
    a.resolve();
    await flush();
    assert.equal(free, false, 'b still holds');
    b.reject(new Error('the panel failed')); // a failed panel ends its hold too
    await flush();
    assert.equal(free, true);
    assert.equal(holds.size, 0);
    assert.equal(timers.pending(), 0, 'the caps were cleared');
  });

  it('ends a hold whose promise never settles at the cap', async () => {
    const timers = manualTimers();
    const holds = new WarmUpHolds(10_000, timers);
    holds.hold(new Promise(() => undefined)); // a webview that never says ready
    let free = false;
    void holds.whenFree().then(() => { free = true; });
    await flush();
    assert.equal(free, false);
    timers.fire();
    await flush();
    assert.equal(free, true);
  });

  it('refuses a cap that is not a non-negative number', () => {
    assert.throws(() => new WarmUpHolds(-1), /capMs must be a non-negative number/);
    assert.throws(() => new WarmUpHolds(Number.NaN), /capMs must be a non-negative number/);
  });
});
