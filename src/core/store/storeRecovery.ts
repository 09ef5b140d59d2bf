/**
 * What a store open (or a later repair) recovered from, in words a user can act on. Exposed as
 * `store.recovery` and logged once as a warning.
 */
export interface StoreRecoveryReport {
  /** One paragraph: what was damaged, what the store was opened from, what (ideally nothing) was lost. */
  readonly message: string;
  /** Damaged files kept aside (timestamped names next to the originals). */
  readonly damagedFiles: readonly string[];
  /** Committed transactions that could not be recovered (0 = nothing lost). */
  readonly lostRecords: number;
  /** Which snapshot the store was rebuilt from. */
  readonly openedFrom: 'snapshot' | 'previous snapshot' | 'journal only';
  /** Journal records replayed on top of that snapshot. */
  readonly replayedRecords: number;
}

export class RecoveryLog {
  readonly notes: string[] = [];
  readonly damagedFiles: string[] = [];
  lostRecords = 0;

  note(text: string): void { this.notes.push(text); }

  keptAside(path: string): void { this.damagedFiles.push(path); }

  get isEmpty(): boolean { return this.notes.length === 0; }

  report(openedFrom: StoreRecoveryReport['openedFrom'], replayedRecords: number): StoreRecoveryReport | undefined {
    if (this.isEmpty) return undefined;
    const lost = this.lostRecords === 0
      ? 'No acknowledged write was lost.'
      : `${this.lostRecords} committed transaction(s) could not be recovered.`;
    const aside = this.damagedFiles.length ? ` Damaged data was kept aside as ${this.damagedFiles.join(', ')}.` : '';
    return {
      message: `Memory store recovered: ${this.notes.join(' ')} Opened from the ${openedFrom} with ${replayedRecords} journal record(s) replayed. ${lost}${aside}`,
      damagedFiles: [...this.damagedFiles],
      lostRecords: this.lostRecords,
      openedFrom,
      replayedRecords,
    };
  }
}
