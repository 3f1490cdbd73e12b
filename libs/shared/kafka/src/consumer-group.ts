import { Consumer, ConsumerGroupJoinEvent } from 'kafkajs';
import { consumerCrashNeedsAttention } from './kafka-errors';

export type GroupJoin = ConsumerGroupJoinEvent['payload'];

function awaitConsumerEvents(consumer: Consumer, timeoutMs: number, needsFetch: boolean): Promise<GroupJoin> {
  return new Promise<GroupJoin>((resolve, reject) => {
    const cleanup: (() => void)[] = [];
    const finish = (outcome: () => void) => {
      for (const remove of cleanup) remove();
      outcome();
    };
    let joined: GroupJoin | undefined;
    // kafkajs rejoins from inside a failed fetch (stale metadata, "not the leader") and still emits
    // FETCH afterwards; only a fetch with no join since its FETCH_START had its offsets resolved.
    let joinedDuringFetch = false;
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new Error(joined ? `The consumer joined but did not fetch within ${timeoutMs} ms` : `The consumer did not join its group within ${timeoutMs} ms`)),
        ),
      timeoutMs,
    );
    cleanup.push(() => clearTimeout(timer));
    cleanup.push(
      consumer.on(consumer.events.GROUP_JOIN, (event) => {
        joined = event.payload;
        joinedDuringFetch = true;
        if (!needsFetch) finish(() => resolve(event.payload));
      }),
    );
    if (needsFetch) {
      cleanup.push(consumer.on(consumer.events.FETCH_START, () => void (joinedDuringFetch = false)));
      cleanup.push(
        consumer.on(consumer.events.FETCH, () => {
          const payload = joined;
          if (payload && !joinedDuringFetch) finish(() => resolve(payload));
        }),
      );
    }
    // A crash on a routine broker answer that kafkajs restarts from (a group coordinator still
    // loading at start-up) does not end the wait: the restarted consumer joins, or times out.
    cleanup.push(
      consumer.on(consumer.events.CRASH, (event) => {
        if (consumerCrashNeedsAttention(event.payload)) finish(() => reject(new Error(`The consumer crashed before it was ready: ${event.payload.error.message}`)));
      }),
    );
  });
}

/**
 * Resolves when the consumer has joined its group (kafkajs's `consumer.run()` returns before
 * that). Call it BEFORE `run()`:
 *   const joined = waitForGroupJoin(consumer);
 *   await consumer.run({ eachMessage });
 *   await joined;
 * Rejects when the consumer crashes (but on a routine broker answer it restarts from) or nothing
 * happens within timeoutMs.
 */
export function waitForGroupJoin(consumer: Consumer, timeoutMs = 30_000): Promise<GroupJoin> {
  return awaitConsumerEvents(consumer, timeoutMs, false);
}

/**
 * Resolves after the group join AND the consumer's first successful fetch (one that did not end in
 * a rejoin), i.e. once the starting offsets of its partitions are fixed. With several brokers this
 * is the first broker's fetch. A consumer without committed offsets that starts from the latest
 * offsets (fromBeginning: false) resolves "latest" only in that first fetch, so a message produced
 * between GROUP_JOIN and the fetch is skipped; wait for this before relying on it receiving
 * what is produced next (e.g. a test's consumer before it sends). Call before `run()`.
 */
export function waitForConsumerReady(consumer: Consumer, timeoutMs = 30_000): Promise<GroupJoin> {
  return awaitConsumerEvents(consumer, timeoutMs, true);
}

/**
 * Consumer retry options under which kafkajs restarts a crashed consumer only while `running()`
 * holds. kafkajs restarts from a timer, and a crash during disconnect() (say the broker is down at
 * shutdown) schedules a restart after it: without this, a stopped service's consumer would try to
 * reconnect for ever.
 */
export function restartWhile(running: () => boolean): { restartOnFailure: (error: Error) => Promise<boolean> } {
  return { restartOnFailure: async () => running() };
}
