import { nodeStoreFs } from '../../../src/core/store/storeFs';
import { FaultyFs } from './faultyFs';

/**
 * node:fs whose off-thread journal fdatasync (StoreFs.fdatasync) can be held: while `hold` is set,
 * each call syncs for real and then waits for release(), so a test can act while a write's sync
 * is in flight. `failNext` makes the next held sync fail with that errno code instead.
 */
export class HeldSyncFs extends FaultyFs {
  hold = false;
  /** Syncs waiting for release(). */
  held = 0;
  failNext: string | undefined;
  private waiting: (() => void)[] = [];
  private onEnter: (() => void)[] = [];

  override fdatasync = async (fd: number): Promise<void> => {
    await nodeStoreFs.fdatasync(fd);
    if (!this.hold) return;
    this.held++;
    for (const f of this.onEnter.splice(0)) f();
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held--;
    const fail = this.failNext;
    this.failNext = undefined;
    if (fail) throw Object.assign(new Error(`${fail}: simulated`), { code: fail });
  };

  /** Resolves once a sync is being held (at once if one is). */
  entered(): Promise<void> {
    if (this.held > 0) return Promise.resolve();
    return new Promise((resolve) => this.onEnter.push(resolve));
  }

  /** Lets every held sync finish. */
  release(): void {
    for (const f of this.waiting.splice(0)) f();
  }
}
