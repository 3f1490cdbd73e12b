import { Topic } from '@alert-ingestion/contracts';
import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { isObservable, lastValueFrom } from 'rxjs';
import { BatchConsumer, BatchConsumerOptions, ChunkOutcome, ConsumedChunk } from '../batch-consumer';
import { ConsumerGroup, KafkaNames } from '../kafka-names';

/** One topic the transport consumes, by its logical name (the handler's `@EventPattern(topic)`). */
export interface BatchSubscription extends Omit<BatchConsumerOptions, 'name' | 'topic' | 'names' | 'groupId' | 'logger' | 'handle'> {
  topic: Topic;
  group: ConsumerGroup;
}

/**
 * A Nest microservice transport (CustomTransportStrategy) over BatchConsumer: every subscription
 * gets a BatchConsumer of its own, and each chunk of messages goes to the `@EventPattern(topic)`
 * handler as its payload (a ConsumedChunk, whose `decode` reads a message through TOPIC_REGISTRY). The topic's physical name (KAFKA_TOPIC_PREFIX) is the
 * transport's business, so handlers name the logical topic. A handler may return a ChunkOutcome
 * whose `settle` work must complete before the chunk's offsets are committed; a handler that throws
 * restarts its consumer from the committed offset.
 */
export class KafkaBatchTransport extends Server implements CustomTransportStrategy {
  private readonly consumers: BatchConsumer[] = [];
  /** Whether every consumer has started (a transport of no subscriptions starts at once). */
  private started = false;
  private readonly log = new Logger('KafkaBatchTransport');

  constructor(
    private readonly kafka: Kafka,
    private readonly names: KafkaNames,
    private readonly subscriptions: readonly BatchSubscription[],
  ) {
    super();
  }

  /** True once its consumers have started, false again once any of them has stopped for good. */
  get healthy(): boolean {
    return this.started && this.consumers.every((consumer) => consumer.healthy);
  }

  listen(callback: (error?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  async close(): Promise<void> {
    this.started = false;
    await Promise.all(this.consumers.splice(0).map((consumer) => consumer.stop()));
  }

  on(): never {
    throw new Error('KafkaBatchTransport has no events to listen to');
  }

  unwrap<T>(): T {
    return this.kafka as T;
  }

  private async start(): Promise<void> {
    for (const { topic, group, ...options } of this.subscriptions) {
      const handler = this.getHandlerByPattern(topic);
      if (!handler) throw new Error(`No @EventPattern handler for ${topic}`);
      const logger = new Logger(topic);
      this.consumers.push(
        new BatchConsumer(this.kafka, {
          ...options,
          name: topic,
          topic,
          names: this.names,
          groupId: this.names.group(group),
          logger,
          handle: async (chunk: ConsumedChunk): Promise<ChunkOutcome | void> => {
            const result: unknown = await handler(chunk);
            return (isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result) as ChunkOutcome | void;
          },
        }),
      );
    }
    await Promise.all(this.consumers.map((consumer) => consumer.start()));
    this.started = true;
    for (const consumer of this.consumers) this.log.log(`Consuming ${consumer.topic}`);
  }
}
