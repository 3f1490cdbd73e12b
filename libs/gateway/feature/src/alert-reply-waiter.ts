import { AlertReply } from '@alert-ingestion/contracts';
import { ReplyListener, ReplyRefusal } from '@alert-ingestion/alert-replies';

export type AlertReplyValue = AlertReply.AlertReplyValue;

export interface AlertReplyWaiterOptions {
  /** This gateway instance's id: the raw alert's reply_to, which its replies must name. */
  instanceId: string;
  /** The host the processors reach the reply listener at, in its URL (GATEWAY_REPLY_HOST). */
  host: string;
  /** The address the reply listener binds to (GATEWAY_REPLY_BIND_HOST, by default the host). */
  bindHost: string;
  /** The reply listener's port (GATEWAY_REPLY_PORT; 0: an ephemeral one). */
  port: number;
  /** Largest reply batch one POST may carry. */
  maxBodyBytes: number;
  logger: { warn(message: string): void };
  /** Replies taken: `delivered` found a request waiting, `late` did not. */
  taken?(delivered: number, late: number): void;
  refused?(reason: ReplyRefusal): void;
}

/** A registered expectation of one reply; the timeout starts with wait(), once the message is in Kafka. */
export interface PendingReply {
  wait(timeoutMs: number): Promise<AlertReplyValue | null>;
  cancel(): void;
}

interface Waiting {
  reply?: AlertReplyValue;
  resolve?: (reply: AlertReplyValue | null) => void;
  timer?: NodeJS.Timeout;
}

/**
 * Delivers the processor's replies to the receive requests waiting for them.
 *
 * Every gateway instance has a reply listener of its own (ReplyListener: an HTTP port reachable by
 * the processors only, a random token) and names it in each raw alert it publishes
 * (reply_endpoint), so the processor that stores the alert posts the reply to this instance alone:
 * no instance reads or decodes another's replies, however many gateways run. It keeps
 * request_id -> waiting request in memory. A reply that comes after its request timed out (202)
 * finds nobody waiting and is counted late: that request's result is in the database anyway.
 */
export class AlertReplyWaiter {
  /** Requests waiting, by request id: several when repeats of one Idempotency-Key wait at once. */
  private readonly waiting = new Map<string, Set<Waiting>>();
  private readonly listener: ReplyListener;

  constructor(private readonly options: AlertReplyWaiterOptions) {
    this.listener = new ReplyListener({
      host: options.host,
      bindHost: options.bindHost,
      port: options.port,
      maxBodyBytes: options.maxBodyBytes,
      logger: options.logger,
      deliver: (replies) => this.deliverAll(replies),
      refused: options.refused,
    });
  }

  get instanceId(): string {
    return this.options.instanceId;
  }

  /** Where processors send this instance's replies (the raw alert's reply_endpoint); known once started. */
  get endpoint(): AlertReply.ReplyEndpointValue {
    return this.listener.endpoint;
  }

  /** False once the listener stopped: replies no longer arrive and every request would get 202. */
  get healthy(): boolean {
    return this.listener.listening;
  }

  /** Resolves once the reply listener listens. */
  async start(): Promise<void> {
    await this.listener.start();
  }

  /** Stops taking replies; requests still waiting get their timeout answer (202). */
  stop(): Promise<void> {
    return this.listener.stop();
  }

  /** Registers interest in a reply before the raw alert is published, so no reply can slip past. */
  expect(requestId: string): PendingReply {
    const waiting: Waiting = {};
    const waiters = this.waiting.get(requestId) ?? new Set<Waiting>();
    waiters.add(waiting);
    this.waiting.set(requestId, waiters);
    const forget = () => {
      waiters.delete(waiting);
      if (waiters.size === 0 && this.waiting.get(requestId) === waiters) this.waiting.delete(requestId);
    };
    return {
      wait: (timeoutMs) =>
        new Promise<AlertReplyValue | null>((resolve) => {
          if (waiting.reply) {
            forget();
            resolve(waiting.reply);
            return;
          }
          waiting.resolve = resolve;
          waiting.timer = setTimeout(() => {
            forget();
            resolve(null);
          }, timeoutMs);
        }),
      cancel: () => {
        if (waiting.timer) clearTimeout(waiting.timer);
        forget();
      },
    };
  }

  private deliverAll(replies: readonly AlertReplyValue[]): AlertReply.AlertReplyReceipt {
    let delivered = 0;
    for (const reply of replies) if (this.deliver(reply)) delivered += 1;
    const late = replies.length - delivered;
    this.options.taken?.(delivered, late);
    return { delivered, late };
  }

  /** True when a request was waiting for the reply. */
  private deliver(reply: AlertReplyValue): boolean {
    if (reply.reply_to !== this.options.instanceId) return false;
    const waiters = this.waiting.get(reply.request_id);
    if (!waiters) return false;
    // Repeats of one Idempotency-Key share a request id: every one waiting gets the first answer.
    for (const waiting of [...waiters]) {
      if (waiting.resolve) {
        if (waiting.timer) clearTimeout(waiting.timer);
        waiters.delete(waiting);
        waiting.resolve(reply);
      } else {
        waiting.reply ??= reply;
      }
    }
    if (waiters.size === 0) this.waiting.delete(reply.request_id);
    return true;
  }
}
