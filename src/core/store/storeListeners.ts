import type { Disposable, StoreChange } from './storeTypes';
import type { Logger } from '../logger';

/** onDidChange listeners; a throwing listener is logged and never breaks the store. */
export class StoreListeners {
  private readonly listeners = new Set<(change: StoreChange) => void>();

  constructor(private readonly logger: Logger) {}

  add(listener: (change: StoreChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  /** Fires asynchronously so listeners never run inside a read or a write. */
  fire(change: StoreChange): void {
    if (this.listeners.size === 0) return;
    const snapshot = [...this.listeners];
    setImmediate(() => {
      for (const l of snapshot) {
        try { l(change); } catch (e) { this.logger.error(`A store change listener failed: ${e instanceof Error ? e.message : String(e)}`); }
      }
    });
  }

  clear(): void { this.listeners.clear(); }
}
