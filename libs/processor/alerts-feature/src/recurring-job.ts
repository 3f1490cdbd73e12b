import { Logger } from '@nestjs/common';

/**
 * Work run every `intervalMs` on a timer that keeps no process alive; a tick while the previous run
 * is still going is skipped. A run resolves what to log of it (nothing when undefined); a failure
 * is logged as a warning after `failure`, and the next tick tries again.
 */
export class RecurringJob {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly failure: string,
    private readonly work: () => Promise<string | undefined>,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for the run in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  run(): void {
    if (this.running) return;
    this.running = this.work()
      .then((done) => {
        if (done) this.logger.log(done);
      })
      .catch((error: unknown) => this.logger.warn(`${this.failure} (tried again later): ${String(error)}`))
      .finally(() => {
        this.running = undefined;
      });
  }
}
