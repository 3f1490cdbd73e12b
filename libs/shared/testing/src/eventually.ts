import { setTimeout as sleep } from 'node:timers/promises';

/** Polls until `check` passes (returns without throwing) or `timeoutMs` is over; the last failure is rethrown. */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 5_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(intervalMs);
    }
  }
}
