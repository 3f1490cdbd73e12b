import { HealthProbe } from '@alert-ingestion/http';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { KafkaPing } from '../kafka-ping';
import { KafkaBatchTransport } from './kafka-batch.transport';
import { KAFKA_CLIENT } from './kafka.tokens';

/** `/healthz` (HealthModule): the Kafka cluster answers a describeCluster request in time. */
@Injectable()
export class KafkaHealthProbe implements HealthProbe, OnModuleDestroy {
  readonly name = 'kafka';
  private readonly kafkaPing: KafkaPing;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka) {
    this.kafkaPing = new KafkaPing(kafka);
  }

  async ping(timeoutMs = 3_000): Promise<void> {
    await this.kafkaPing.ping(timeoutMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.kafkaPing.close();
  }
}

/**
 * `/healthz` of a service that consumes through the KafkaBatchTransport: Kafka answers, and each of
 * the transport's consumers still follows its topic (one that stopped for good processes nothing).
 */
@Injectable()
export class KafkaConsumersHealthProbe extends KafkaHealthProbe {
  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    private readonly transport: KafkaBatchTransport,
  ) {
    super(kafka);
  }

  override async ping(): Promise<void> {
    await super.ping();
    if (!this.transport.healthy) throw new Error('a Kafka consumer has stopped');
  }
}
