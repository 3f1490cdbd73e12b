import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { HealthProbe } from '@alert-ingestion/http';
import { KAFKA_CLIENT, KafkaPing } from '@alert-ingestion/kafka';
import { AlertsDatabase } from '@alert-ingestion/alerts-data';
import { Kafka } from 'kafkajs';

/** `/healthz`: PostgreSQL answers. */
@Injectable()
export class PostgresHealthProbe implements HealthProbe {
  readonly name = 'postgresql';

  constructor(private readonly database: AlertsDatabase) {}

  ping(): Promise<void> {
    return this.database.ping();
  }
}

/** `/healthz`: the Kafka cluster answers. */
@Injectable()
export class KafkaHealthProbe implements HealthProbe, OnModuleDestroy {
  readonly name = 'kafka';
  private readonly kafkaPing: KafkaPing;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka) {
    this.kafkaPing = new KafkaPing(kafka);
  }

  async ping(): Promise<void> {
    await this.kafkaPing.ping();
  }

  async onModuleDestroy(): Promise<void> {
    await this.kafkaPing.close();
  }
}
