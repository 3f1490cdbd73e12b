import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Topic, topicName, encodeMessage } from '@alert-ingestion/contracts';
import { DurableProducer, KAFKA_CLIENT, waitForGroupJoin } from '@alert-ingestion/kafka';
import { AlertBatchRepository } from '@alert-ingestion/alerts-data';
import { Consumer, EachBatchPayload, Kafka, TopicMessages } from 'kafkajs';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { INTEGRATION_LOOKUP, IntegrationLookup } from './integration-lookup';
import { BatchOutcome, RawAlertBatchProcessor } from './raw-alert-batch.processor';

/**
 * Consumes alerts.raw.v1 in batches (kafkajs eachBatch, not the one-message-at-a-time Nest
 * microservice server; issue 4 point 8) as the consumer group `<prefix>alert-processor`.
 * Per chunk of a batch: store in one transaction, then send replies and dead letters, and only then
 * mark the offsets; kafkajs commits marked offsets after the batch. A crash anywhere before the
 * offset commit means redelivery, which the processed_raw_alerts record turns into a no-op that
 * repeats the stored answer (exactly-once effect, issue 4 point 6).
 */
@Injectable()
export class RawAlertConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RawAlertConsumer.name);
  private readonly consumer: Consumer;
  private readonly producer: DurableProducer;
  private readonly processor: RawAlertBatchProcessor;
  private readonly topics: { raw: string; replies: string; deadLetters: string };

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
    @Inject(INTEGRATION_LOOKUP) integrations: IntegrationLookup,
    repository: AlertBatchRepository,
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
    });
    this.producer = new DurableProducer(kafka, { logSink: this.logger });
    this.processor = new RawAlertBatchProcessor(repository, integrations, {
      integrationLookupTimeoutMs: options.integrationLookupTimeoutMs,
      sourceTopic: this.topics.raw,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.producer.connect();
    await this.consumer.connect();
    // A new group starts at the beginning: raw alerts accepted before the first processor started are not lost.
    await this.consumer.subscribe({ topic: this.topics.raw, fromBeginning: true });
    const joined = waitForGroupJoin(this.consumer);
    await this.consumer.run({
      autoCommit: true,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.consumer.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.handleBatch(payload),
    });
    await joined;
    this.logger.log(`Consuming ${this.topics.raw} as group ${this.options.topicPrefix}alert-processor`);
  }

  /** Graceful shutdown: stop fetching, let the batch in flight finish and commit, then disconnect. */
  async onModuleDestroy(): Promise<void> {
    await this.consumer.disconnect();
    await this.producer.disconnect();
  }

  private async handleBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { maxBatchMessages } = this.options.consumer;
    for (let start = 0; start < batch.messages.length; start += maxBatchMessages) {
      // After a rebalance or on shutdown, leave the rest to whoever consumes the partition next.
      if (!isRunning() || isStale()) return;
      const chunk = batch.messages.slice(start, start + maxBatchMessages);
      const outcome = await this.processor.process(batch.partition, chunk);
      await this.send(outcome);
      resolveOffset(chunk[chunk.length - 1].offset);
      await heartbeat();
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
      for (const letter of outcome.deadLetters) this.logger.warn(`Dead-lettered ${letter.source_topic}/${letter.source_partition}@${letter.source_offset}: ${letter.reason}`);
      topicMessages.push({
        topic: this.topics.deadLetters,
        messages: outcome.deadLetters.map((letter) => ({ key: null, value: encodeMessage(letter) })),
      });
    }
    if (topicMessages.length > 0) await this.producer.sendBatch({ topicMessages });
  }
}
