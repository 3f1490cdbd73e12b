import { ConfigService } from '@alert-ingestion/config';
import { Topic, topicName } from '@alert-ingestion/contracts';
import { IntegrationRateLimiter } from '@alert-ingestion/gateway-domain';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { createKafkaConfig, DurableProducer, KAFKA_CLIENT } from '@alert-ingestion/kafka';
import { Logger, Module } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { AlertReceiveService } from './alert-receive.service';
import { AlertReplyWaiter } from './alert-reply-waiter';
import { GatewayEnv } from './gateway.env';
import { GatewayLifecycle } from './gateway-lifecycle.service';
import { RawAlertPublisher } from './raw-alert-publisher';

type Config = ConfigService<GatewayEnv>;

/**
 * The receive pipeline's providers. Needs ConfigModule.forRoot(GatewayEnv) and KafkaModule.forRoot
 * (the KAFKA_CLIENT) in the application module.
 */
@Module({
  providers: [
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
      provide: DurableProducer,
      inject: [ConfigService],
      useFactory: (config: Config) => {
        const logSink = new Logger('RawAlertProducer');
        // A client of its own with short connection retries: a produce nests them inside its own
        // retries, and with the shared default (~10 s each) a caller would wait ~30 s for its 503.
        // Consumers keep the patient default (a fresh broker's group coordinator takes a while).
        const kafka = new Kafka(
          createKafkaConfig(
            { KAFKA_BROKERS: config.get('KAFKA_BROKERS'), KAFKA_CLIENT_ID: config.get('KAFKA_CLIENT_ID'), LOG_LEVEL: config.get('LOG_LEVEL') },
            { logSink, overrides: { retry: { initialRetryTime: 100, maxRetryTime: 800, retries: 3 } } },
          ),
        );
        return new DurableProducer(kafka, {
          // kafkajs's idempotent producer loses or rejects messages when sends to one partition
          // overlap (kafkajs issues 598, 1005), and the publisher overlaps them on purpose.
          // Duplicates from a retried batch are harmless: the processor is idempotent per request_id.
          idempotent: false,
          retry: { retries: config.get('GATEWAY_PRODUCE_RETRIES'), initialRetryTime: 100, maxRetryTime: 800 },
          logSink,
        });
      },
    },
    {
      provide: RawAlertPublisher,
      inject: [DurableProducer, ConfigService],
      useFactory: (producer: DurableProducer, config: Config) =>
        new RawAlertPublisher(producer, {
          topic: topicName(Topic.RawAlerts, config.get('KAFKA_TOPIC_PREFIX')),
          lingerMs: config.get('GATEWAY_BATCH_LINGER_MS'),
          maxMessages: config.get('GATEWAY_BATCH_MAX_MESSAGES'),
          maxBytes: config.get('GATEWAY_BATCH_MAX_BYTES'),
          maxInFlight: config.get('GATEWAY_BATCH_MAX_IN_FLIGHT'),
          compressAboveBytes: config.get('GATEWAY_COMPRESS_ABOVE_BYTES'),
          logger: new Logger('RawAlertPublisher'),
        }),
    },
    {
      provide: AlertReplyWaiter,
      inject: [KAFKA_CLIENT, ConfigService],
      useFactory: (kafka: Kafka, config: Config) => {
        const instanceId = randomUUID();
        const prefix = config.get('KAFKA_TOPIC_PREFIX');
        return new AlertReplyWaiter(kafka, {
          instanceId,
          topic: topicName(Topic.AlertReplies, prefix),
          groupId: `${prefix}gateway-replies-${instanceId}`,
          maxWaitTimeInMs: config.get('GATEWAY_REPLY_MAX_WAIT_MS'),
          minBytes: config.get('GATEWAY_REPLY_MIN_BYTES'),
          logger: new Logger('AlertReplyWaiter'),
        });
      },
    },
    {
      provide: IntegrationRateLimiter,
      inject: [ConfigService],
      useFactory: (config: Config) => new IntegrationRateLimiter(config.get('GATEWAY_RATE_LIMIT_PER_MINUTE')),
    },
    {
      provide: AlertReceiveService,
      inject: [IntegrationRegistry, IntegrationRateLimiter, RawAlertPublisher, AlertReplyWaiter, ConfigService],
      useFactory: (registry: IntegrationRegistry, limiter: IntegrationRateLimiter, publisher: RawAlertPublisher, replies: AlertReplyWaiter, config: Config) =>
        new AlertReceiveService(registry, limiter, publisher, replies, {
          replyTimeoutMs: config.get('GATEWAY_REPLY_TIMEOUT_MS'),
          unavailableRetryAfterSeconds: config.get('GATEWAY_UNAVAILABLE_RETRY_AFTER_SECONDS'),
        }),
    },
    GatewayLifecycle,
  ],
  // The registry and reply waiter are exported for GatewayHealthProbe, which HealthModule instantiates.
  exports: [AlertReceiveService, GatewayLifecycle, IntegrationRegistry, AlertReplyWaiter],
})
export class GatewayFeatureModule {}
