import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Topic, topicName, encodeMessage } from '@alert-ingestion/contracts';
import { DurableProducer, KAFKA_CLIENT, restartWhile, waitForGroupJoin } from '@alert-ingestion/kafka';
import { AlertBatchRepository, DeliveriesRepository } from '@alert-ingestion/alerts-data';
import { secondsSince } from '@alert-ingestion/metrics';
import { StructuredLogMessage } from '@alert-ingestion/http';
import { Consumer, EachBatchPayload, Kafka, TopicMessages } from 'kafkajs';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { INTEGRATION_LOOKUP, IntegrationLookup } from './integration-lookup';
import { ProcessorMetrics } from './processor-metrics';
import { BatchOutcome, RawAlertBatchProcessor } from './raw-alert-batch.processor';

/**
 * Consumes alerts.raw.v1 in batches (kafkajs eachBatch, not the one-message-at-a-time Nest
 * microservice server) as the consumer group `<prefix>alert-processor`.
 * Per chunk of a batch: store in one transaction, then send replies and dead letters, and only then
 * commit the offsets. A crash anywhere before the offset commit means redelivery, which the
 * processed_raw_alerts record turns into a no-op that repeats the stored answer (exactly-once
 * effect).
 *
 * For throughput the round trips to the broker overlap the database work: a
 * chunk's replies are sent while the next chunk is stored, and offsets are committed in the
 * background, one OffsetCommit at a time and at most one per commit interval (kafkajs autoCommit
 * would commit before every fetch). Only offsets of messages whose transaction committed and whose
 * replies were sent are ever committed. A failed send is noticed by the next chunk of its partition
 * (or at shutdown) and restarts the consumer from the committed offset.
 */
@Injectable()
export class RawAlertConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RawAlertConsumer.name);
  private readonly consumer: Consumer;
  private readonly producer: DurableProducer;
  private readonly processor: RawAlertBatchProcessor;
  private readonly topics: { raw: string; replies: string; deadLetters: string };
  private stopping = false;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
    @Inject(INTEGRATION_LOOKUP) integrations: IntegrationLookup,
    repository: AlertBatchRepository,
    deliveries: DeliveriesRepository,
    private readonly metrics: ProcessorMetrics,
  ) {
    const prefix = options.topicPrefix;
    this.topics = {
      raw: topicName(Topic.RawAlerts, prefix),
      replies: topicName(Topic.AlertReplies, prefix),
      deadLetters: topicName(Topic.RawAlertsDeadLetter, prefix),
    };
    this.consumer = kafka.consumer({
      groupId: `${prefix}alert-processor`,
      minBytes: 1,
      maxWaitTimeInMs: options.consumer.maxWaitTimeInMs,
      maxBytesPerPartition: options.consumer.maxBytesPerPartition,
      maxBytes: options.consumer.maxBytes,
      sessionTimeout: options.consumer.sessionTimeout,
      heartbeatInterval: options.consumer.heartbeatInterval,
      allowAutoTopicCreation: false,
      retry: restartWhile(() => !this.stopping),
    });
    // Not idempotent: kafkajs's idempotent producer loses or rejects messages when sends to one
    // partition overlap (kafkajs issues 598, 1005), and sends here overlap (several partitions
    // concurrently, and pipelined within a partition). A duplicate reply from a retried send is
    // harmless (the gateway answers a request once); a duplicate dead letter only repeats a record.
    this.producer = new DurableProducer(kafka, { idempotent: false, logSink: this.logger });
    this.processor = new RawAlertBatchProcessor(repository, deliveries, integrations, {
      integrationLookupTimeoutMs: options.integrationLookupTimeoutMs,
      sourceTopic: this.topics.raw,
      recordDeliveries: options.deliveries.keepPerIntegration > 0,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.producer.connect();
    await this.consumer.connect();
    // A new group starts at the beginning: raw alerts accepted before the first processor started are not lost.
    await this.consumer.subscribe({ topic: this.topics.raw, fromBeginning: true });
    const joined = waitForGroupJoin(this.consumer);
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => this.onGroupJoin());
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.consumer.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.handleBatch(payload),
    });
    await joined;
    this.logger.log(`Consuming ${this.topics.raw} as group ${this.options.topicPrefix}alert-processor`);
  }

  /** Graceful shutdown: stop fetching, let the batch in flight finish and commit, then disconnect. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    // The consumer is still in its group here: commit what is done so far (an idle partition's
    // last chunks); the chunk in flight commits itself once it sees that the consumer stops.
    await this.settleSends();
    await this.flush().catch((error: unknown) => this.logger.warn(`Offset commit before shutdown failed: ${String(error)}`));
    await this.consumer.disconnect();
    await this.producer.disconnect();
  }

  /** Per partition of the current group generation: the committable and the committed offset. */
  private partitions = new Map<number, PartitionPipeline>();
  private generation = 0;
  private commitInFlight: Promise<void> | undefined;
  private commitAgain = false;
  private lastCommitAt = 0;
  private commitOffsets: EachBatchPayload['commitOffsetsIfNecessary'] | undefined;

  private onGroupJoin(): void {
    // A new generation re-fetches from the committed offsets; what the previous one left
    // uncommitted is redelivered (and answered from processed_raw_alerts).
    this.generation += 1;
    this.partitions = new Map();
    this.metrics.partitionsReassigned();
  }

  private pipeline(partition: number): PartitionPipeline {
    let pipeline = this.partitions.get(partition);
    if (!pipeline) {
      pipeline = { committable: undefined, committed: undefined, sending: Promise.resolve() };
      this.partitions.set(partition, pipeline);
    }
    return pipeline;
  }

  private async handleBatch({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }: EachBatchPayload): Promise<void> {
    this.commitOffsets = commitOffsetsIfNecessary;
    const { maxBatchMessages } = this.options.consumer;
    const pipeline = this.pipeline(batch.partition);
    for (let start = 0; start < batch.messages.length; start += maxBatchMessages) {
      // After a rebalance or on shutdown, leave the rest to whoever consumes the partition next.
      if (!isRunning() || isStale()) break;
      const chunk = batch.messages.slice(start, start + maxBatchMessages);
      const started = performance.now();
      const outcome = await this.processor.process(batch.partition, chunk);
      const next = (BigInt(chunk[chunk.length - 1].offset) + 1n).toString();
      this.metrics.batchStored(chunk.length, secondsSince(started), outcome);
      this.metrics.lag(batch.partition, batch.highWatermark, next);
      // The previous chunk's replies went out while this one was stored. A failed send throws out
      // of eachBatch: kafkajs restarts the consumer, which fetches again from the committed offset
      // (never beyond a chunk whose replies were not sent) and repeats the stored answers.
      await pipeline.sending;
      resolveOffset(chunk[chunk.length - 1].offset);
      pipeline.sending = this.send(outcome).then(() => {
        pipeline.committable = next;
        // The OffsetCommit round trip runs in the background instead of before the next fetch.
        this.requestCommit();
      });
      // Awaited by the next chunk, or at shutdown; a rejection must not count as unhandled meanwhile.
      pipeline.sending.catch(() => undefined);
      await heartbeat();
    }
    if (!isRunning()) {
      // Shutting down: the group is left after this returns, so send and commit what is done now.
      await this.settleSends();
      await this.flush().catch((error: unknown) => this.logger.warn(`Offset commit at shutdown failed: ${String(error)}`));
    }
  }

  /** Waits for the replies in flight (a failed send is only logged: its messages are redelivered). */
  private async settleSends(): Promise<void> {
    const results = await Promise.allSettled([...this.partitions.values()].map((pipeline) => pipeline.sending));
    for (const result of results) {
      if (result.status === 'rejected') this.logger.warn(`Sending replies failed (the messages will be redelivered): ${String(result.reason)}`);
    }
  }

  /** Commits every committable offset (after the commit in flight, if any). */
  private async flush(): Promise<void> {
    while (this.commitInFlight) await this.commitInFlight;
    await this.commitNow();
  }

  /**
   * At most one OffsetCommit in flight, and at most one per commit interval; another one follows
   * when offsets moved meanwhile.
   */
  private requestCommit(): void {
    if (this.commitInFlight) {
      this.commitAgain = true;
      return;
    }
    const wait = this.lastCommitAt + this.options.consumer.commitIntervalMs - Date.now();
    this.commitInFlight = (wait > 0 ? new Promise<void>((resolve) => setTimeout(resolve, wait)) : Promise.resolve())
      .then(() => {
        this.lastCommitAt = Date.now();
        return this.commitNow();
      })
      .catch((error: unknown) => this.logger.warn(`Offset commit failed (the messages will be redelivered if it is not retried): ${String(error)}`))
      .finally(() => {
        this.commitInFlight = undefined;
        if (this.commitAgain) {
          this.commitAgain = false;
          this.requestCommit();
        }
      });
  }

  private async commitNow(): Promise<void> {
    const commit = this.commitOffsets;
    if (!commit) return;
    const partitions: Array<{ partition: number; offset: string }> = [];
    const pipelines = this.partitions;
    for (const [partition, pipeline] of pipelines) {
      if (pipeline.committable !== undefined && pipeline.committable !== pipeline.committed) {
        partitions.push({ partition, offset: pipeline.committable });
      }
    }
    if (partitions.length === 0) return;
    const generation = this.generation;
    await commit({ topics: [{ topic: this.topics.raw, partitions }] });
    if (generation !== this.generation) return;
    for (const { partition, offset } of partitions) {
      const pipeline = pipelines.get(partition);
      if (pipeline) pipeline.committed = offset;
    }
  }

  /** Replies (key: the waiting gateway instance) and dead letters, durably, before offsets move. */
  private async send(outcome: BatchOutcome): Promise<void> {
    const topicMessages: TopicMessages[] = [];
    if (outcome.replies.length > 0) {
      topicMessages.push({
        topic: this.topics.replies,
        messages: outcome.replies.map((reply) => ({ key: reply.key, value: encodeMessage(reply.value) })),
      });
    }
    if (outcome.deadLetters.length > 0) {
      for (const { value: letter, requestId } of outcome.deadLetters) {
        this.logger.warn({
          message: `Dead-lettered ${letter.source_topic}/${letter.source_partition}@${letter.source_offset}: ${letter.reason}`,
          request_id: requestId,
        } satisfies StructuredLogMessage);
      }
      topicMessages.push({
        topic: this.topics.deadLetters,
        messages: outcome.deadLetters.map((letter) => ({ key: null, value: encodeMessage(letter.value) })),
      });
    }
    if (topicMessages.length > 0) await this.producer.sendBatch({ topicMessages });
    this.metrics.deadLettered(outcome.deadLetters.length);
  }
}

interface PartitionPipeline {
  /** The next offset to consume, every earlier message stored and answered. */
  committable: string | undefined;
  /** The last offset committed by this instance in this generation. */
  committed: string | undefined;
  /**
   * Replies and dead letters of the last stored chunk, sent while the next chunk is processed (the
   * broker round trip overlaps the database work). The chunk's offset becomes committable once they
   * are sent.
   */
  sending: Promise<void>;
}
