/** A row the broker refuses, how often so far, and why. */
export interface Refusal {
  id: string;
  attempts: number;
  reason: string;
}

/** What the relay does after the broker refused rows `first..last`. */
export type AfterRefusal =
  | { action: 'isolate' }
  /** `refusal.attempts` tries so far: retry after a backoff, or dead-letter it once they reach maxAttempts. */
  | { action: 'retry'; refusal: Refusal };

/**
 * The relay's dead-lettering decisions, pure: when the broker refuses a batch for its records (too
 * large, malformed), its rows go one per transaction to find the refused one, which is tried
 * `maxAttempts` times and then dead-lettered. One record never holds back the others.
 */
export class RecordRefusals {
  /** While set, rows up to this id go one per transaction. */
  private isolateThrough: bigint | undefined;
  private refused: Refusal | undefined;

  constructor(private readonly maxAttempts: number) {}

  /** How many rows to read at `position`: one while isolating the refused row. */
  batchSize(position: bigint, batchSize: number): number {
    return this.isolating(position) ? 1 : batchSize;
  }

  isolating(position: bigint): boolean {
    return this.isolateThrough !== undefined && position <= this.isolateThrough;
  }

  /** The refused row at `position` whose attempts are used up: it goes to the dead-letter topic. */
  exhausted(position: bigint): Refusal | undefined {
    const refused = this.refused;
    return refused && BigInt(refused.id) === position && refused.attempts >= this.maxAttempts ? refused : undefined;
  }

  /** The broker refused rows `first..last` (ids) for `reason`. */
  rejected(first: string, last: string, reason: string): AfterRefusal {
    if (first !== last) {
      this.isolateThrough = BigInt(last);
      return { action: 'isolate' };
    }
    const refusal = this.refused?.id === first ? this.refused : { id: first, attempts: 0, reason };
    refusal.attempts += 1;
    refusal.reason = reason;
    this.refused = refusal;
    return { action: 'retry', refusal };
  }

  /** Every row below `next` is published (or dead-lettered): a refusal among them is over. */
  passed(next: bigint): void {
    if (this.refused && BigInt(this.refused.id) < next) this.refused = undefined;
  }

  /** The outbox is published to its end: no row is left to isolate. */
  caughtUp(): void {
    this.isolateThrough = undefined;
  }
}
