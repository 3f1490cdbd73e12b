import { CompressionTypes, Message } from 'kafkajs';
import { AsyncLocalStorage } from 'node:async_hooks';

/** What the batching producer needs of a producer; DurableProducer fits and always sends with acks -1. */
export interface BatchingProducerTarget {
  send(record: { topic: string; messages: Message[]; compression?: CompressionTypes }): Promise<unknown>;
}

export interface BatchingProducerOptions {
  /** Physical (prefixed) topic name. */
  topic: string;
  lingerMs: number;
  maxMessages: number;
  maxBytes: number;
  maxInFlight: number;
  /**
   * Messages above this size are sent alone and gzip-compressed: a body near the 1 MiB limit plus
   * its envelope exceeds a broker's default max.message.bytes (1 MB) uncompressed, while JSON
   * compresses well. Small messages stay uncompressed (gzip costs more CPU than it saves here).
   */
  compressAboveBytes: number;
  logger?: { warn(message: string): void };
  /** Called once per produce request that failed. */
  onSendFailed?: () => void;
}

interface PendingMessage {
  message: Message;
  bytes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The engine of TopicProducer's `batched` mode (callers use TopicProducer.batched, which encodes
 * through the topic registry). Publishes to one topic with `acks: -1` (all in-sync replicas), batching concurrent callers'
 * messages into few produce requests: one produce per receive request would cap the gateway far
 * below the throughput target. Each caller's promise
 * settles when the batch holding its message is acknowledged or has failed, so a 200/202 is never
 * sent for a message Kafka did not accept.
 *
 * Batching adapts to load: a batch leaves after `lingerMs` (0 = the current event-loop turn), or at
 * once when full; while `maxInFlight` produce requests are outstanding, new messages wait and
 * leave together when one returns.
 */
export class BatchingProducer {
  private pending: PendingMessage[] = [];
  private pendingBytes = 0;
  private scheduled: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private inFlight = 0;
  private readonly idleWaiters: Array<() => void> = [];
  /**
   * Runs a function in the context the publisher was made in, outside any request: a batch holds
   * many requests' messages, so its produce request and its lines belong to none of them (a batch
   * would otherwise carry the request id of whichever request happened to send it).
   */
  private readonly outsideRequests = AsyncLocalStorage.snapshot();

  constructor(
    private readonly producer: BatchingProducerTarget,
    private readonly options: BatchingProducerOptions,
  ) {}

  /** Publishes an encoded message (TopicProducer.batched encodes through the topic registry). */
  publish(key: string | null, value: Buffer | string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // A raw alert is bytes already; only a text value is measured.
      const bytes = (key === null ? 0 : key.length) + (typeof value === 'string' ? Buffer.byteLength(value) : value.length);
      if (bytes > this.options.compressAboveBytes) {
        const entry = { message: { key, value }, bytes, resolve, reject };
        this.send([entry], CompressionTypes.GZIP);
        return;
      }
      this.pending.push({ message: { key, value }, bytes, resolve, reject });
      this.pendingBytes += bytes;
      // Full batches leave at once; a partial remainder waits for the linger like any other.
      while (this.isFull() && this.inFlight < this.options.maxInFlight) this.send(this.takeBatch());
      if (this.pending.length > 0) this.schedule();
    });
  }

  /** Messages accepted by publish() whose produce request has not completed. */
  get outstanding(): number {
    return this.pending.length + this.inFlight;
  }

  /** Sends what is pending and resolves when every produce request has completed. */
  async drain(): Promise<void> {
    this.flush();
    if (this.pending.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private isFull(): boolean {
    return this.pending.length >= this.options.maxMessages || this.pendingBytes >= this.options.maxBytes;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled =
      this.options.lingerMs > 0 ? setTimeout(() => this.onScheduled(), this.options.lingerMs) : setImmediate(() => this.onScheduled());
  }

  private onScheduled(): void {
    this.scheduled = null;
    this.flush();
  }

  private flush(): void {
    if (this.scheduled) {
      clearTimeout(this.scheduled as NodeJS.Timeout);
      clearImmediate(this.scheduled as NodeJS.Immediate);
      this.scheduled = null;
    }
    while (this.pending.length > 0 && this.inFlight < this.options.maxInFlight) {
      this.send(this.takeBatch());
    }
  }

  /** The oldest pending messages that fit the limits; a single oversized message goes alone. */
  private takeBatch(): PendingMessage[] {
    let count = 0;
    let bytes = 0;
    while (count < this.pending.length && count < this.options.maxMessages) {
      const next = this.pending[count].bytes;
      if (count > 0 && bytes + next > this.options.maxBytes) break;
      bytes += next;
      count++;
    }
    this.pendingBytes -= bytes;
    return this.pending.splice(0, count);
  }

  private send(batch: PendingMessage[], compression = CompressionTypes.None): void {
    this.inFlight++;
    this.outsideRequests(() => this.produce(batch, compression));
  }

  private produce(batch: PendingMessage[], compression: CompressionTypes): void {
    this.producer
      .send({ topic: this.options.topic, messages: batch.map((entry) => entry.message), compression })
      .then(
        () => batch.forEach((entry) => entry.resolve()),
        (error: unknown) => {
          this.options.logger?.warn(`producing ${batch.length} messages to ${this.options.topic} failed: ${error instanceof Error ? error.message : String(error)}`);
          this.options.onSendFailed?.();
          batch.forEach((entry) => entry.reject(error));
        },
      )
      .finally(() => {
        this.inFlight--;
        if (this.pending.length > 0) this.flush();
        else if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
      });
  }
}
