import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { Kafka } from 'kafkajs';
import { KafkaPing } from '../kafka-ping';
import { KAFKA_CLIENT } from './kafka.tokens';

/** Terminus indicator: up when the Kafka cluster answers a describeCluster request in time. */
@Injectable()
export class KafkaHealthIndicator implements OnModuleDestroy {
  private readonly kafkaPing: KafkaPing;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    private readonly healthIndicatorService: HealthIndicatorService,
  ) {
    this.kafkaPing = new KafkaPing(kafka);
  }

  async isHealthy<const Key extends string = 'kafka'>(key: Key = 'kafka' as Key, timeoutMs = 3_000): Promise<HealthIndicatorResult<Key>> {
    const indicator = this.healthIndicatorService.check(key);
    try {
      const cluster = await this.kafkaPing.ping(timeoutMs);
      return indicator.up({ brokers: cluster.brokers });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.kafkaPing.close();
  }
}
