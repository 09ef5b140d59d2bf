/** Time source injected into services so tests can move time deterministically. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2026, 0, 1)) {}
  now(): number { return this.current; }
  set(ms: number): void { this.current = ms; }
  advance(ms: number): void { this.current += ms; }
}

export function isoFromMs(ms: number): string {
  return new Date(ms).toISOString();
}
