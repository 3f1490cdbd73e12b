/**
 * kafkajs 2.2.4's request queue arms its throttle check with a negative delay after a response
 * (`throttledUntil` starts at -1; tulios/kafkajs#1751, open upstream). Node runs such
 * a timer after 1 ms, as it always did, but since Node 24 it also prints a TimeoutNegativeWarning to
 * stderr: a line nobody can act on, outside the service's log format (not JSON under LOG_FORMAT=json).
 */
export function isKafkajsNegativeTimeoutWarning(warning: Error): boolean {
  return warning.name === 'TimeoutNegativeWarning' && /[\\/]kafkajs[\\/]src[\\/]network[\\/]requestQueue[\\/]/.test(warning.stack ?? '');
}

let installed = false;

/**
 * Leaves that one warning out of what Node prints; every other process warning reaches the
 * listeners it had (Node's printer) as before. Idempotent: the kafka library calls it when loaded,
 * so every process that uses kafkajs through it (services, `npm start`, tools, tests) has it.
 */
export function ignoreKafkajsNegativeTimeoutWarning(): void {
  if (installed) return;
  installed = true;
  const listeners = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (isKafkajsNegativeTimeoutWarning(warning)) return;
    for (const listener of listeners) listener(warning);
  });
}
