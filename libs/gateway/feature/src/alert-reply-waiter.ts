import { AlertReply, ContractViolationError, decodeMessage } from '@alert-ingestion/contracts';
import { consumerCrashNeedsAttention, restartWhile } from '@alert-ingestion/kafka';
import { Consumer, EachBatchPayload, Kafka } from 'kafkajs';

export type AlertReplyValue = AlertReply.AlertReplyValue;

export interface AlertReplyWaiterOptions {
  /** This gateway instance's id: replies keyed (and `reply_to`-addressed) to it are ours. */
  instanceId: string;
  /** Physical (prefixed) name of alerts.replies.v1. */
  topic: string;
  /** Consumer group of this instance alone (ARCHITECTURE.md "Reply path"). */
  groupId: string;
  maxWaitTimeInMs: number;
  /** Bytes a fetch waits for (up to maxWaitTimeInMs) before it returns; see GATEWAY_REPLY_MIN_BYTES. */
  minBytes: number;
  logger: { warn(message: string): void; error(message: string): void; debug?(message: string): void };
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
 * Every gateway instance reads all partitions of alerts.replies.v1 in a consumer group of its own,
 * from the latest offsets, and keeps request_id -> waiting request in memory. No group is shared,
 * so a rebalance elsewhere (other gateways, processors) can never move our replies to someone
 * else, which is how @nestjs/microservices request-reply loses them. Replies addressed to other
 * instances are skipped by key before decoding. A reply that comes after its request timed out
 * (202) finds nobody waiting and is dropped: that request's result is in the database anyway.
 */
export class AlertReplyWaiter {
  /** Requests waiting, by request id: several when repeats of one Idempotency-Key wait at once. */
  private readonly waiting = new Map<string, Set<Waiting>>();
  private consumer: Consumer | null = null;
  private crashed: Error | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: AlertReplyWaiterOptions,
  ) {}

  get instanceId(): string {
    return this.options.instanceId;
  }

  /** False once the consumer stopped for good: replies no longer arrive and every request would get 202. */
  get healthy(): boolean {
    return this.consumer !== null && this.crashed === null;
  }

  /** Resolves once the group is joined and the first fetch ran, i.e. the latest offsets are fixed. */
  async start(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.options.groupId,
      maxWaitTimeInMs: this.options.maxWaitTimeInMs,
      minBytes: this.options.minBytes,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      allowAutoTopicCreation: false,
      retry: restartWhile(() => this.consumer === consumer),
    });
    this.consumer = consumer;
    const ready = new Promise<void>((resolve, reject) => {
      let joined = false;
      const removeJoin = consumer.on(consumer.events.GROUP_JOIN, () => {
        joined = true;
      });
      // Offsets are resolved inside the first fetch after the join (kafkajs consumerGroup.fetch):
      // a reply written before that moment could be skipped, so readiness waits for it.
      const removeFetch = consumer.on(consumer.events.FETCH, () => {
        if (!joined) return;
        removeJoin();
        removeFetch();
        removeCrash();
        resolve();
      });
      // A crash on a routine broker answer that kafkajs restarts the consumer from (a coordinator
      // still loading at start-up) is waited out.
      const removeCrash = consumer.on(consumer.events.CRASH, (event) => {
        if (!consumerCrashNeedsAttention(event.payload)) return;
        removeJoin();
        removeFetch();
        removeCrash();
        reject(event.payload.error);
      });
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      const line = `reply consumer crashed (${payload.restart ? 'restarting' : 'stopped'}): ${payload.error.message}`;
      if (consumerCrashNeedsAttention(payload)) this.options.logger.error(line);
      else this.options.logger.debug?.(line);
      if (!payload.restart) this.crashed = payload.error;
    });
    await consumer.connect();
    await consumer.subscribe({ topic: this.options.topic, fromBeginning: false });
    await consumer.run({
      // Offsets only matter across restarts of this group, and a restarted gateway gets a new one.
      autoCommit: false,
      eachBatch: (payload) => this.onBatch(payload),
    });
    await ready;
  }

  /** Stops reading replies; requests still waiting get their timeout answer (202). */
  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    if (consumer) await consumer.disconnect();
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

  private async onBatch({ batch }: EachBatchPayload): Promise<void> {
    const instanceId = this.options.instanceId;
    for (const message of batch.messages) {
      if (message.key?.toString() !== instanceId) continue;
      let reply: AlertReplyValue;
      try {
        reply = decodeMessage(AlertReply.AlertReplyValue, message.value);
      } catch (error) {
        const reason = error instanceof ContractViolationError ? error.message : String(error);
        this.options.logger.warn(`ignoring an invalid reply at ${batch.topic}[${batch.partition}]@${message.offset}: ${reason}`);
        continue;
      }
      this.deliver(reply);
    }
  }

  private deliver(reply: AlertReplyValue): void {
    if (reply.reply_to !== this.options.instanceId) return;
    const waiters = this.waiting.get(reply.request_id);
    if (!waiters) return;
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
  }
}
