import { ConfigService } from '@alert-ingestion/config';
import { Topic } from '@alert-ingestion/contracts';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { BatchingProducer, DurableProducer, KAFKA_CLIENT, KafkaModuleOptions, KafkaNames } from '@alert-ingestion/kafka';
import { HttpRequestMetrics } from '@alert-ingestion/metrics';
import { Logger, Module } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { randomUUID } from 'node:crypto';
import { AlertReceiveService } from './alert-receive.service';
import { AlertReplyWaiter } from './alert-reply-waiter';
import { DeliveryRecorder } from './delivery-recorder';
import { GATEWAY_REDIS, DELIVERY_RECORDS_PUBLISHER, RAW_ALERTS_PUBLISHER } from './gateway.tokens';
import { IntegrationRateLimit } from './integration-rate-limit';
import { GatewayEnv } from './gateway.env';
import { GatewayLifecycle } from './gateway-lifecycle.service';
import { GatewayMetrics } from './gateway-metrics';

type Config = ConfigService<GatewayEnv>;

/** The gateway's KafkaModule.forRoot options: its producer of raw alerts and delivery records. */
export function gatewayKafkaOptions(env: GatewayEnv): KafkaModuleOptions {
  return {
    producer: {
      name: 'RawAlertProducer',
      // A client of its own with short connection retries: a produce nests them inside its own
      // retries, and with the shared default (~10 s each) a caller would wait ~30 s for its 503.
      // Consumers keep the patient default (a fresh broker's group coordinator takes a while).
      clientRetry: { initialRetryTime: 100, maxRetryTime: 800, retries: 3 },
      // kafkajs's idempotent producer loses or rejects messages when sends to one partition
      // overlap (kafkajs issues 598, 1005), and the batching producer overlaps them on purpose.
      // Duplicates from a retried batch are harmless: the processor is idempotent per request_id.
      idempotent: false,
      retry: { retries: env.GATEWAY_PRODUCE_RETRIES, initialRetryTime: 100, maxRetryTime: 800 },
    },
  };
}

/**
 * The receive pipeline's providers. Needs ConfigModule.forRoot(GatewayEnv), KafkaModule.forRoot
 * (the client, names and the gateway's DurableProducer: see gatewayKafkaOptions) and
 * MetricsModule.forRoot in the application module.
 */
@Module({
  providers: [
    {
      provide: GatewayMetrics,
      inject: [Registry, HttpRequestMetrics],
      useFactory: (registry: Registry, http: HttpRequestMetrics) => new GatewayMetrics(registry, http),
    },
    {
      provide: IntegrationRegistry,
      inject: [KAFKA_CLIENT, ConfigService],
      useFactory: (kafka: Kafka, config: Config) =>
        new IntegrationRegistry(kafka, {
          topicPrefix: config.get('KAFKA_TOPIC_PREFIX'),
          consumerName: 'gateway',
          logger: new Logger('IntegrationRegistry'),
        }),
    },
    {
      provide: RAW_ALERTS_PUBLISHER,
      inject: [DurableProducer, KafkaNames, ConfigService, GatewayMetrics],
      useFactory: (producer: DurableProducer, names: KafkaNames, config: Config, metrics: GatewayMetrics) =>
        new BatchingProducer(producer, {
          topic: names.topic(Topic.RawAlerts),
          lingerMs: config.get('GATEWAY_BATCH_LINGER_MS'),
          maxMessages: config.get('GATEWAY_BATCH_MAX_MESSAGES'),
          maxBytes: config.get('GATEWAY_BATCH_MAX_BYTES'),
          maxInFlight: config.get('GATEWAY_BATCH_MAX_IN_FLIGHT'),
          compressAboveBytes: config.get('GATEWAY_COMPRESS_ABOVE_BYTES'),
          logger: new Logger('RawAlertPublisher'),
          onSendFailed: () => metrics.publishFailed(),
        }),
    },
    {
      provide: AlertReplyWaiter,
      inject: [KAFKA_CLIENT, KafkaNames, ConfigService],
      useFactory: (kafka: Kafka, names: KafkaNames, config: Config) => {
        return new AlertReplyWaiter(kafka, names, {
          instanceId: randomUUID(),
          maxWaitTimeInMs: config.get('GATEWAY_REPLY_MAX_WAIT_MS'),
          minBytes: config.get('GATEWAY_REPLY_MIN_BYTES'),
          logger: new Logger('AlertReplyWaiter'),
        });
      },
    },
    {
      // Delivery records are few and never urgent: batched like raw alerts, on the same producer.
      provide: DELIVERY_RECORDS_PUBLISHER,
      inject: [DurableProducer, KafkaNames, ConfigService],
      useFactory: (producer: DurableProducer, names: KafkaNames, config: Config) =>
        new BatchingProducer(producer, {
          topic: names.topic(Topic.Deliveries),
          lingerMs: 20,
          maxMessages: 500,
          maxBytes: config.get('GATEWAY_BATCH_MAX_BYTES'),
          maxInFlight: 1,
          compressAboveBytes: config.get('GATEWAY_COMPRESS_ABOVE_BYTES'),
          logger: new Logger('DeliveryRecords'),
        }),
    },
    {
      provide: DeliveryRecorder,
      inject: [DELIVERY_RECORDS_PUBLISHER, ConfigService],
      useFactory: (publisher: BatchingProducer, config: Config) =>
        new DeliveryRecorder(publisher, { maxPerIntegrationPerSecond: config.get('GATEWAY_DELIVERY_RECORDS_PER_SECOND'), logger: new Logger('DeliveryRecords') }),
    },
    {
      provide: GATEWAY_REDIS,
      inject: [ConfigService],
      useFactory: (config: Config): Redis | null => {
        const url = config.get('REDIS_URL');
        if (!url) return null;
        const logger = new Logger('Redis');
        // Commands fail fast while Redis is away (the rate limit's in-memory stand-in takes over).
        const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
        let down = false;
        redis.on('error', (error: Error) => {
          if (!down) logger.warn(`Redis is unavailable, rate limits count per instance until it answers: ${error.message}`);
          down = true;
        });
        redis.on('ready', () => {
          if (down) logger.log('Redis answers again: rate limits are shared');
          down = false;
        });
        return redis;
      },
    },
    {
      provide: IntegrationRateLimit,
      inject: [ConfigService, GATEWAY_REDIS],
      useFactory: (config: Config, redis: Redis | null) =>
        new IntegrationRateLimit({
          defaultPerMinute: config.get('GATEWAY_RATE_LIMIT_PER_MINUTE'),
          redis: redis ?? undefined,
          keyPrefix: config.get('REDIS_KEY_PREFIX'),
        }),
    },
    {
      provide: AlertReceiveService,
      inject: [IntegrationRegistry, IntegrationRateLimit, RAW_ALERTS_PUBLISHER, DeliveryRecorder, AlertReplyWaiter, GatewayMetrics, ConfigService],
      useFactory: (
        registry: IntegrationRegistry,
        rateLimit: IntegrationRateLimit,
        publisher: BatchingProducer,
        deliveries: DeliveryRecorder,
        replies: AlertReplyWaiter,
        metrics: GatewayMetrics,
        config: Config,
      ) =>
        new AlertReceiveService(registry, rateLimit, publisher, deliveries, replies, metrics, {
          replyTimeoutMs: config.get('GATEWAY_REPLY_TIMEOUT_MS'),
          integrationWaitMs: config.get('GATEWAY_INTEGRATION_WAIT_MS'),
          unavailableRetryAfterSeconds: config.get('GATEWAY_UNAVAILABLE_RETRY_AFTER_SECONDS'),
        }),
    },
    GatewayLifecycle,
  ],
  // The registry and reply waiter are exported for GatewayHealthProbe, which HealthModule instantiates.
  exports: [AlertReceiveService, GatewayLifecycle, GatewayMetrics, IntegrationRegistry, AlertReplyWaiter],
})
export class GatewayFeatureModule {}
