/**
 * Holds the embedding model's warm-up while something the user is waiting for loads (issue #27,
 * docs/knowledgePanelFirstOpen.md): the warm-up (ONNX model, vector index, lexical index) takes a
 * second or more of CPU, and on a small machine it competed with VS Code's first webview start,
 * which delayed the Knowledge panel's first list. A hold ends when its promise settles or after
 * `capMs`, so a webview that never says ready delays the warm-up by the cap at most. It never imports
 * vscode, so it is unit-tested alone.
 */
export interface HoldTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const NODE_TIMERS: HoldTimers = {
  setTimeout: (fn, ms) => { const t = setTimeout(fn, ms); t.unref?.(); return t; },
  clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
};

export class WarmUpHolds {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly capMs: number, private readonly timers: HoldTimers = NODE_TIMERS) {
    if (!(capMs >= 0)) throw new RangeError(`WarmUpHolds: capMs must be a non-negative number of milliseconds, got ${capMs}`);
  }

  /** How many holds are in force. */
  get size(): number { return this.pending.size; }

  /** Holds the warm-up until `until` settles (fulfilled or rejected) or `capMs` passed, whichever first. */
  hold(until: Promise<unknown>): void {
    let handle: unknown;
    const ended = new Promise<void>((resolve) => {
      handle = this.timers.setTimeout(resolve, this.capMs);
      until.then(() => resolve(), () => resolve());
    }).then(() => {
      this.timers.clearTimeout(handle);
      this.pending.delete(ended);
    });
    this.pending.add(ended);
  }

  /** Resolves once no hold is in force, including holds added while it waited. */
  async whenFree(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
