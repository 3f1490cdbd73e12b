import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
import { Kafka, RetryOptions } from 'kafkajs';
import { DurableProducerOptions } from '../durable-producer';
import { createKafkaConfig, KafkaSettings } from '../kafka-config';
import { KafkaNames } from '../kafka-names';
import { TopicProducer } from '../producer/topic-producer';
import { KAFKA_CLIENT } from './kafka.tokens';

export interface KafkaModuleSettings extends KafkaSettings {
  /** KAFKA_TOPIC_PREFIX: empty in production, per run in tests. */
  KAFKA_TOPIC_PREFIX?: string;
}

export interface KafkaProducerSettings extends Omit<DurableProducerOptions, 'logSink'> {
  /** Names the producer in log lines. */
  name: string;
  /**
   * Connection retries of a client of the producer's own: a produce nests them inside its own
   * retries, so a producer that must fail fast (the gateway's 503) wants short ones. Default: the
   * shared client.
   */
  clientRetry?: RetryOptions;
}

export interface KafkaModuleOptions {
  /** The service's TopicProducer (injected as TopicProducer), connected at start-up and disconnected last. */
  producer?: KafkaProducerSettings;
}

/** Connects the shared producer at start-up; disconnects it after every consumer and relay stopped. */
@Injectable()
class KafkaProducerLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(TopicProducer) private readonly producer: TopicProducer) {}

  async onModuleInit(): Promise<void> {
    await this.producer.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.disconnect();
  }
}

/**
 * Thin Nest wrapper: the service's kafkajs client (built by createKafkaConfig, logging through
 * Nest's Logger) under KAFKA_CLIENT, its KafkaNames, and with `options.producer` its one
 * TopicProducer (HealthModule takes KafkaHealthProbe for `/healthz`). Global so that feature
 * modules inject the one client, names and producer.
 */
@Module({})
export class KafkaModule {
  static forRoot(settings: KafkaModuleSettings, options: KafkaModuleOptions = {}): DynamicModule {
    const providers: Provider[] = [
      { provide: KAFKA_CLIENT, useFactory: () => new Kafka(createKafkaConfig(settings, { logSink: new Logger('Kafka') })) },
      { provide: KafkaNames, useValue: new KafkaNames(settings.KAFKA_TOPIC_PREFIX ?? '') },
    ];
    const producer = options.producer;
    if (producer) {
      providers.push(
        {
          provide: TopicProducer,
          inject: [KAFKA_CLIENT, KafkaNames],
          useFactory: (shared: Kafka, names: KafkaNames) => {
            const logSink = new Logger(producer.name);
            const kafka = producer.clientRetry ? new Kafka(createKafkaConfig(settings, { logSink, overrides: { retry: producer.clientRetry } })) : shared;
            return new TopicProducer(kafka, names, { ...producer, logSink });
          },
        },
        KafkaProducerLifecycle,
      );
    }
    return {
      module: KafkaModule,
      global: true,
      providers,
      exports: [KAFKA_CLIENT, KafkaNames, ...(producer ? [TopicProducer] : [])],
    };
  }
}
