import { DynamicModule, Logger, Module } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { createKafkaConfig, KafkaSettings } from '../kafka-config';
import { KAFKA_CLIENT } from './kafka.tokens';

/**
 * Thin Nest wrapper: the service's kafkajs client (built by createKafkaConfig, logging through
 * Nest's Logger) under KAFKA_CLIENT (HealthModule takes KafkaHealthProbe for `/healthz`). Global so
 * that feature modules inject the one client.
 */
@Module({})
export class KafkaModule {
  static forRoot(settings: KafkaSettings): DynamicModule {
    return {
      module: KafkaModule,
      global: true,
      providers: [
        {
          provide: KAFKA_CLIENT,
          useFactory: () => new Kafka(createKafkaConfig(settings, { logSink: new Logger('Kafka') })),
        },
      ],
      exports: [KAFKA_CLIENT],
    };
  }
}
