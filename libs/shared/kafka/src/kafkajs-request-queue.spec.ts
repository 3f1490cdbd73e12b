import RequestQueue from 'kafkajs/src/network/requestQueue';
import { armKafkajsPendingCheckOnlyWhenWaiting } from './kafkajs-request-queue';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const queues: RequestQueue[] = [];

/** A connection's request queue of kafkajs itself, with the fix installed, and what it sent. */
function connectionQueue(maxInFlightRequests: number | null) {
  armKafkajsPendingCheckOnlyWhenWaiting();
  const queue = new RequestQueue({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'spec', broker: 'b:9092', logger: quiet });
  queues.push(queue);
  const sent: number[] = [];
  let looks = 0;
  const check = queue.checkPendingRequests.bind(queue);
  queue.checkPendingRequests = () => {
    looks += 1;
    check();
  };
  const push = (correlationId: number) =>
    (queue as unknown as { push(request: unknown): void }).push({
      entry: { correlationId, apiKey: 3, apiName: 'Metadata', apiVersion: 0, resolve: () => undefined, reject: () => undefined },
      expectResponse: true,
      sendRequest: () => sent.push(correlationId),
    });
  const answer = (correlationId: number) =>
    (queue as unknown as { fulfillRequest(response: unknown): void }).fulfillRequest({ correlationId, payload: Buffer.alloc(0), size: 0 });
  const settled = () => queue.waitForPendingRequests();
  return { queue, sent, push, answer, settled, looks: () => looks };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('armKafkajsPendingCheckOnlyWhenWaiting (kafkajs 2.2.4 request queue)', () => {
  // A queue that still loops would keep the test process alive.
  afterEach(() => queues.splice(0).forEach((queue) => queue.destroy()));

  it('arms no timer once a response leaves no request waiting, so an idle connection stays asleep', async () => {
    const { queue, sent, push, answer, looks } = connectionQueue(null);
    push(1);
    answer(1);
    expect(sent).toEqual([1]);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    const before = looks();
    await pause(100);
    // Unfixed, the queue looks again every millisecond: about a hundred looks here.
    expect(looks() - before).toBe(0);
  });

  it('still sends a request held back by a throttle once the throttle ends', async () => {
    const { queue, sent, push, answer } = connectionQueue(null);
    (queue as unknown as { maybeThrottle(ms: number): void }).maybeThrottle(40);
    push(1);
    expect(sent).toEqual([]);
    expect(queue.throttleCheckTimeoutId).not.toBeNull();
    await pause(120);
    expect(sent).toEqual([1]);
    answer(1);
    expect(queue.throttleCheckTimeoutId).toBeNull();
  });

  it('sends a request over the in-flight limit when the one in flight is answered, then sleeps', async () => {
    const { queue, sent, push, answer, looks } = connectionQueue(1);
    push(1);
    push(2);
    expect(sent).toEqual([1]);
    answer(1);
    expect(sent).toEqual([1, 2]);
    answer(2);
    expect(queue.pending).toHaveLength(0);
    // The look armed while request 2 waited runs once more, finds nothing and arms no other.
    await pause(50);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    const before = looks();
    await pause(50);
    expect(looks() - before).toBe(0);
  });

  it("still sends a request queued while the connection disconnects, so the disconnect's wait for its requests ends", async () => {
    const { queue, sent, push, answer, settled } = connectionQueue(1);
    push(1);
    push(2);
    // A disconnecting connection waits for its requests, and its request-timeout check clears the
    // queue's timers (destroy) once it sees the connection is no longer connected.
    let done = false;
    const waiting = settled().then(() => (done = true));
    queue.destroy();
    answer(1);
    expect(sent).toEqual([1, 2]);
    await pause(20);
    expect(done).toBe(false);
    answer(2);
    await waiting;
    expect(queue.pending).toHaveLength(0);
  });
});
