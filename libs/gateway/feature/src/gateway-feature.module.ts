import { Topic } from '@alert-ingestion/contracts';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { BatchedTopicProducer, KAFKA_CLIENT, KafkaNames, TopicProducer } from '@alert-ingestion/kafka';
import { HttpRequestMetrics } from '@alert-ingestion/metrics';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { randomUUID } from 'node:crypto';
import { AlertReceiveService } from './alert-receive.service';
import { AlertReplyWaiter } from './alert-reply-waiter';
import { DeliveryRecorder } from './delivery-recorder';
import { GATEWAY_REDIS, DELIVERY_RECORDS_PUBLISHER, RAW_ALERTS_PUBLISHER } from './gateway.tokens';
import { IntegrationRateLimit } from './integration-rate-limit';
import { SignatureReplayCache } from './signature-replay-cache';
import { GATEWAY_FEATURE_OPTIONS, GatewayFeatureOptions } from './gateway-feature.options';
import { GatewayLifecycle } from './gateway-lifecycle.service';
import { GatewayMetrics } from './gateway-metrics';

/**
 * The receive pipeline's providers. Needs KafkaModule.forRoot (the client, names and the gateway's
 * TopicProducer) and MetricsModule.forRoot in the application module.
 */
@Module({})
export class GatewayFeatureModule {
  static forRoot(options: GatewayFeatureOptions): DynamicModule {
    return {
      module: GatewayFeatureModule,
      providers: [
        { provide: GATEWAY_FEATURE_OPTIONS, useValue: options },
        {
          provide: GatewayMetrics,
          inject: [Registry, HttpRequestMetrics],
          useFactory: (registry: Registry, http: HttpRequestMetrics) => new GatewayMetrics(registry, http),
        },
        {
          provide: IntegrationRegistry,
          inject: [KAFKA_CLIENT, KafkaNames],
          useFactory: (kafka: Kafka, names: KafkaNames) =>
            new IntegrationRegistry(kafka, {
              topicPrefix: names.prefix,
              consumerName: 'gateway',
              logger: new Logger('IntegrationRegistry'),
            }),
        },
        {
          provide: RAW_ALERTS_PUBLISHER,
          inject: [TopicProducer, GatewayMetrics],
          useFactory: (producer: TopicProducer, metrics: GatewayMetrics) =>
            producer.batched(Topic.RawAlerts, {
              ...options.rawAlertBatching,
              logger: new Logger('RawAlertPublisher'),
              onSendFailed: () => metrics.publishFailed(),
            }),
        },
        {
          provide: AlertReplyWaiter,
          inject: [GatewayMetrics],
          useFactory: (metrics: GatewayMetrics) =>
            new AlertReplyWaiter({
              instanceId: randomUUID(),
              ...options.replies,
              logger: new Logger('AlertReplyWaiter'),
              taken: (delivered, late) => metrics.repliesTaken(delivered, late),
              refused: (reason) => metrics.replyRefused(reason),
            }),
        },
        {
          // Delivery records are few and never urgent: batched like raw alerts, on the same producer.
          provide: DELIVERY_RECORDS_PUBLISHER,
          inject: [TopicProducer],
          useFactory: (producer: TopicProducer) =>
            producer.batched(Topic.Deliveries, {
              lingerMs: 20,
              maxMessages: 500,
              maxBytes: options.rawAlertBatching.maxBytes,
              maxInFlight: 1,
              compressAboveBytes: options.rawAlertBatching.compressAboveBytes,
              logger: new Logger('DeliveryRecords'),
            }),
        },
        {
          provide: DeliveryRecorder,
          inject: [DELIVERY_RECORDS_PUBLISHER],
          useFactory: (publisher: BatchedTopicProducer<Topic.Deliveries>) =>
            new DeliveryRecorder(publisher, { maxPerIntegrationPerSecond: options.deliveryRecordsPerSecond, logger: new Logger('DeliveryRecords') }),
        },
        {
          provide: GATEWAY_REDIS,
          useFactory: (): Redis | null => {
            const url = options.rateLimit.redisUrl;
            if (!url) return null;
            const logger = new Logger('Redis');
            // Commands fail fast while Redis is away (the rate limit's and the replay cache's in-memory stand-ins take over).
            const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
            let down = false;
            redis.on('error', (error: Error) => {
              if (!down) logger.warn(`Redis is unavailable, rate limits and spent signatures are per instance until it answers: ${error.message}`);
              down = true;
            });
            redis.on('ready', () => {
              if (down) logger.log('Redis answers again: rate limits and spent signatures are shared');
              down = false;
            });
            return redis;
          },
        },
        {
          provide: IntegrationRateLimit,
          inject: [GATEWAY_REDIS],
          useFactory: (redis: Redis | null) => new IntegrationRateLimit({ ...options.rateLimit, redis: redis ?? undefined }),
        },
        {
          provide: SignatureReplayCache,
          inject: [GATEWAY_REDIS],
          useFactory: (redis: Redis | null) => new SignatureReplayCache({ keyPrefix: options.rateLimit.keyPrefix, redis: redis ?? undefined }),
        },
        {
          provide: AlertReceiveService,
          inject: [IntegrationRegistry, IntegrationRateLimit, SignatureReplayCache, RAW_ALERTS_PUBLISHER, DeliveryRecorder, AlertReplyWaiter, GatewayMetrics],
          useFactory: (
            registry: IntegrationRegistry,
            rateLimit: IntegrationRateLimit,
            signatureReplays: SignatureReplayCache,
            publisher: BatchedTopicProducer<Topic.RawAlerts>,
            deliveries: DeliveryRecorder,
            replies: AlertReplyWaiter,
            metrics: GatewayMetrics,
          ) =>
            new AlertReceiveService(registry, rateLimit, signatureReplays, publisher, deliveries, replies, metrics, options),
        },
        GatewayLifecycle,
      ],
      // The registry and reply waiter are exported for GatewayHealthProbe, which HealthModule instantiates.
      exports: [AlertReceiveService, GatewayLifecycle, GatewayMetrics, IntegrationRegistry, AlertReplyWaiter],
    };
  }
}
