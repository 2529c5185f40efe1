/** Counts of a batch so far. */
export type BatchTally = { lines: number; valid: number; expired: number; invalid: number; backend: string };

const REFRESH_MS = 250;

/**
 * One self-rewriting status line on a terminal's standard error (never used when standard error is not a terminal):
 * lines done, rate, and the valid / expired / invalid counts, redrawn at most 4 times a second, then left as a final
 * summary line.
 */
export class BatchProgress {
  private readonly started = Date.now();
  private last = 0;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly workers: number,
  ) {}

  update(tally: BatchTally): void {
    const now = Date.now();
    if (now - this.last < REFRESH_MS) return;
    this.last = now;
    this.stream.write(`\r${this.describe(tally, now)}\x1b[K`);
  }

  done(tally: BatchTally): void {
    this.stream.write(`\r${this.describe(tally, Date.now())}\x1b[K\n`);
  }

  private describe(tally: BatchTally, now: number): string {
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = Math.round(tally.lines / seconds).toLocaleString("en-US");
    return (
      `attest verify --batch: ${tally.lines.toLocaleString("en-US")} lines (${rate}/s, ${this.workers} workers, ${tally.backend}): ` +
      `${tally.valid} valid and fresh, ${tally.expired} expired, ${tally.invalid} invalid`
    );
  }
}
