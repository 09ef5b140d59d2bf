/**
 * What a store open (or a later repair) recovered from, in words a user can act on. Exposed as
 * `store.recovery` and logged once as a warning.
 */
export interface StoreRecoveryReport {
  /** One paragraph: what was damaged, what the store was opened from, what (ideally nothing) was lost. */
  readonly message: string;
  /** Damaged files kept aside (timestamped names next to the originals). */
  readonly damagedFiles: readonly string[];
  /**
   * Acknowledged transactions that could not be recovered (0 = nothing lost): exact when the
   * journal tip was usable (`lossExact`), otherwise the records seen in the damaged bytes.
   */
  readonly lostRecords: number;
  /** False when the tip was missing or damaged, so `lostRecords` is a lower bound. */
  readonly lossExact: boolean;
  /** What the user can do next (CLI command, VS Code command). */
  readonly nextStep: string;
  /** Which snapshot the store was rebuilt from ('running replica': repaired by a process that had the store open). */
  readonly openedFrom: 'snapshot' | 'previous snapshot' | 'journal only' | 'running replica';
  /** Journal records replayed on top of that snapshot. */
  readonly replayedRecords: number;
}

/** The next step every recovery report ends with (docs/store.md, "Recovery"). */
export const RECOVERY_NEXT_STEP = 'Run `agent-memory store check` to verify the store (in VS Code: Memory: Show Status); the kept-aside files can be deleted once you no longer need them.';

export class RecoveryLog {
  readonly notes: string[] = [];
  readonly damagedFiles: string[] = [];
  lostRecords = 0;
  /** Records counted in damaged bytes (used only when the tip cannot say). */
  heuristicLost = 0;
  /** Why the loss count is not exact, when it is not. */
  lossUnknown: string | undefined;

  note(text: string): void { this.notes.push(text); }

  keptAside(path: string): void { this.damagedFiles.push(path); }

  get isEmpty(): boolean { return this.notes.length === 0; }

  report(openedFrom: StoreRecoveryReport['openedFrom'], replayedRecords: number): StoreRecoveryReport | undefined {
    if (this.isEmpty) return undefined;
    let lost: string;
    if (this.lossUnknown) {
      lost = `How many acknowledged writes were lost is unknown because ${this.lossUnknown}${this.lostRecords ? `; at least ${this.lostRecords} transaction(s) could not be recovered` : ''}.`;
    } else {
      lost = this.lostRecords === 0
        ? 'No acknowledged write was lost.'
        : `${this.lostRecords} acknowledged transaction(s) were lost.`;
    }
    const aside = this.damagedFiles.length ? ` Damaged data was kept aside as ${this.damagedFiles.join(', ')}.` : '';
    return {
      message: `Memory store recovered: ${this.notes.join(' ')} ${openedFrom === 'running replica' ? 'Repaired while open, from this process\'s copy.' : `Opened from the ${openedFrom} with ${replayedRecords} journal record(s) replayed.`} ${lost}${aside} ${RECOVERY_NEXT_STEP}`,
      damagedFiles: [...this.damagedFiles],
      lostRecords: this.lostRecords,
      lossExact: this.lossUnknown === undefined,
      nextStep: RECOVERY_NEXT_STEP,
      openedFrom,
      replayedRecords,
    };
  }
}
