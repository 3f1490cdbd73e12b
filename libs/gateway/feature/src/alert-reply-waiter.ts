import { AlertReply, ContractViolationError, Topic } from '@alert-ingestion/contracts';
import { BatchConsumer, BatchConsumerLogger, ConsumedChunk, ConsumerGroup, KafkaNames } from '@alert-ingestion/kafka';
import { Kafka } from 'kafkajs';

export type AlertReplyValue = AlertReply.AlertReplyValue;

export interface AlertReplyWaiterOptions {
  /** This gateway instance's id: replies keyed (and `reply_to`-addressed) to it are ours. */
  instanceId: string;
  maxWaitTimeInMs: number;
  /** Bytes a fetch waits for (up to maxWaitTimeInMs) before it returns; see GATEWAY_REPLY_MIN_BYTES. */
  minBytes: number;
  logger: BatchConsumerLogger;
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
  private readonly consumer: BatchConsumer<Topic.AlertReplies>;

  constructor(
    kafka: Kafka,
    names: KafkaNames,
    private readonly options: AlertReplyWaiterOptions,
  ) {
    this.consumer = new BatchConsumer(kafka, {
      name: 'reply',
      topic: Topic.AlertReplies,
      names,
      // A group of this instance alone (ARCHITECTURE.md "Reply path"), from the latest offsets.
      groupId: names.group(ConsumerGroup.GatewayReplies, options.instanceId),
      fromBeginning: false,
      // A reply written before the first fetch fixed the latest offsets could be skipped.
      readyWhen: 'fetch',
      config: { maxWaitTimeInMs: options.maxWaitTimeInMs, minBytes: options.minBytes, sessionTimeout: 10_000, heartbeatInterval: 1_000 },
      // No commits: offsets only matter across restarts of this group, and a restarted gateway gets a new one.
      logger: options.logger,
      handle: async (chunk) => this.onChunk(chunk),
    });
  }

  get instanceId(): string {
    return this.options.instanceId;
  }

  /** False once the consumer stopped for good: replies no longer arrive and every request would get 202. */
  get healthy(): boolean {
    return this.consumer.healthy;
  }

  /** Resolves once the group is joined and the first fetch ran, i.e. the latest offsets are fixed. */
  start(): Promise<void> {
    return this.consumer.start();
  }

  /** Stops reading replies; requests still waiting get their timeout answer (202). */
  stop(): Promise<void> {
    return this.consumer.stop();
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

  private onChunk({ topic, partition, messages, key, decode }: ConsumedChunk<Topic.AlertReplies>): void {
    const instanceId = this.options.instanceId;
    for (const message of messages) {
      // Another instance's reply is skipped by its key, never decoded.
      if (key(message) !== instanceId) continue;
      let reply: AlertReplyValue;
      try {
        reply = decode(message);
      } catch (error) {
        const reason = error instanceof ContractViolationError ? error.message : String(error);
        this.options.logger.warn(`ignoring an invalid reply at ${topic}[${partition}]@${message.offset}: ${reason}`);
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
