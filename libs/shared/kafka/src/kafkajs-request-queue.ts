import RequestQueue from 'kafkajs/src/network/requestQueue';

let installed = false;

/**
 * kafkajs 2.2.4's request queue, one per broker connection, arms a timer after every response to
 * look at its waiting requests again, and after that look arms the next one, whether or not a
 * request waits. With no throttle in force the delay is negative, which Node runs after 1 ms: every
 * connection of a process, busy or idle, wakes the event loop about a thousand times a second for
 * as long as it is open (tulios/kafkajs#1556, fixed upstream only in unreleased pull requests).
 * A process of ours holds a dozen connections or more (consumers, relays' producers, admin).
 *
 * From here on the queue arms that timer only while a request waits: a request that cannot be sent
 * at once is queued by `push`, which arms it (at the throttle's end, or kafkajs's 10 ms interval);
 * every response looks at the queue again; a look that leaves requests waiting arms the next.
 * Nothing waits on the timer otherwise. Idempotent: the kafka library installs it when loaded, so
 * every process that uses kafkajs through it (services, `npm start`, tools, tests) has it.
 */
export function armKafkajsPendingCheckOnlyWhenWaiting(): void {
  if (installed) return;
  installed = true;
  const schedule = RequestQueue.prototype.scheduleCheckPendingRequests;
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueue): void {
    if (this.pending.length === 0) return;
    schedule.call(this);
  };
}
