import { isKafkajsNegativeTimeoutWarning } from './kafkajs-timeout-warning';

// kafkajs's own request queue, the one that arms the negative timer (not part of its public API).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: Record<string, unknown>) => { scheduleCheckPendingRequests(): void };

/**
 * The warning Node makes when `arm` calls setTimeout with a negative delay: created inside that
 * setTimeout call, so its stack names the caller.
 */
function negativeTimeoutWarning(arm: () => void): Error | undefined {
  let warning: Error | undefined;
  const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((_callback: () => void, delay?: number) => {
    if (delay !== undefined && delay < 0) {
      warning = new Error(`${delay} is a negative number.`);
      warning.name = 'TimeoutNegativeWarning';
    }
    return { unref: () => undefined } as unknown as NodeJS.Timeout;
  }) as unknown as typeof setTimeout);
  try {
    arm();
  } finally {
    spy.mockRestore();
  }
  return warning;
}

describe('isKafkajsNegativeTimeoutWarning', () => {
  it("recognises the warning kafkajs's request queue causes", () => {
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const queue = new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 1_000, enforceRequestTimeout: false, clientId: 'spec', broker: 'b:9092', logger });
    const warning = negativeTimeoutWarning(() => queue.scheduleCheckPendingRequests());
    expect(warning && isKafkajsNegativeTimeoutWarning(warning)).toBe(true);
  });

  it("leaves other code's negative timeouts and other warnings alone", () => {
    const ours = negativeTimeoutWarning(() => setTimeout(() => undefined, -5));
    expect(ours && isKafkajsNegativeTimeoutWarning(ours)).toBe(false);
    const other = new Error('kafkajs/src/network/requestQueue/index.js');
    other.name = 'DeprecationWarning';
    expect(isKafkajsNegativeTimeoutWarning(other)).toBe(false);
  });
});
