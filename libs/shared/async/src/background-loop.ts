import { setTimeout as delay } from 'node:timers/promises';

/**
 * Work that runs in the background from start() until stop(): `run` is given the signal stop()
 * aborts, and stop() waits for it to return, so whatever it had in flight finishes first. Starting a
 * running loop does nothing; a stopped loop can start again.
 */
export class BackgroundLoop {
  private controller = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly run: (signal: AbortSignal) => Promise<void>) {}

  /** Whether stop() was called since the last start (the loop should end). */
  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  start(): void {
    if (this.running) return;
    this.controller = new AbortController();
    this.running = this.run(this.controller.signal);
  }

  /** Aborts the signal at once (before the first await), then waits until the loop has returned. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
    this.running = undefined;
  }

  /** Waits `ms`, or less if the loop is stopped meanwhile. */
  sleep(ms: number): Promise<void> {
    return delay(ms, undefined, { signal: this.controller.signal }).catch(() => undefined);
  }
}
