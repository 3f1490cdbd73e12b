import { PrismaService } from '@alert-ingestion/database';
import { HealthProbe } from '@alert-ingestion/http';
import { KAFKA_CLIENT, KafkaPing } from '@alert-ingestion/kafka';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';

const PING_TIMEOUT_MS = 3_000;

/** `/healthz`: PostgreSQL answers in time. */
@Injectable()
export class PostgresqlHealthProbe implements HealthProbe {
  readonly name = 'postgresql';

  constructor(private readonly prisma: PrismaService) {}

  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.prisma.$queryRaw`SELECT 1`,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `/healthz`: the Kafka cluster answers (integration changes are published there). */
@Injectable()
export class KafkaHealthProbe implements HealthProbe, OnModuleDestroy {
  readonly name = 'kafka';
  private readonly kafkaPing: KafkaPing;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka) {
    this.kafkaPing = new KafkaPing(kafka);
  }

  async ping(): Promise<void> {
    await this.kafkaPing.ping(PING_TIMEOUT_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.kafkaPing.close();
  }
}
