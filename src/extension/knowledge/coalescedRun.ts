/**
 * A refresh that coalesces: `run()` starts the task, or, while a run is in flight, asks for one more
 * run after it and returns the run in flight. Store changes arriving during a refresh (several
 * captures, another window's writes) cost one more refresh, not one each. `stopped` ends the
 * repeats (a disposed panel).
 */
export class CoalescedRun {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly task: () => Promise<void>, private readonly stopped: () => boolean) {}

  run(): Promise<void> {
    if (this.running) { this.again = true; return this.running; }
    this.running = (async () => {
      do {
        this.again = false;
        await this.task();
      } while (this.again && !this.stopped());
    })().finally(() => { this.running = undefined; });
    return this.running;
  }
}
