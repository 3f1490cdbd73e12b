import { ConfigModule, integrationKeyEncryptionKey } from '@alert-ingestion/config';
import { GatewayFeatureModule, GatewayFeatureOptions, GatewayHealthProbe } from '@alert-ingestion/gateway-feature';
import { HealthModule } from '@alert-ingestion/http';
import { KafkaModule, KafkaModuleOptions } from '@alert-ingestion/kafka';
import { MetricsModule } from '@alert-ingestion/metrics';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { GatewayEnv } from './gateway.env';

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

/** The receive pipeline's settings from the gateway's environment. */
export function gatewayFeatureOptions(env: GatewayEnv): GatewayFeatureOptions {
  return {
    replyTimeoutMs: env.GATEWAY_REPLY_TIMEOUT_MS,
    integrationWaitMs: env.GATEWAY_INTEGRATION_WAIT_MS,
    unavailableRetryAfterSeconds: env.GATEWAY_UNAVAILABLE_RETRY_AFTER_SECONDS,
    rawAlertBatching: {
      lingerMs: env.GATEWAY_BATCH_LINGER_MS,
      maxMessages: env.GATEWAY_BATCH_MAX_MESSAGES,
      maxBytes: env.GATEWAY_BATCH_MAX_BYTES,
      maxInFlight: env.GATEWAY_BATCH_MAX_IN_FLIGHT,
      compressAboveBytes: env.GATEWAY_COMPRESS_ABOVE_BYTES,
    },
    replies: {
      host: env.GATEWAY_REPLY_HOST,
      bindHost: env.GATEWAY_REPLY_BIND_HOST ?? env.GATEWAY_REPLY_HOST,
      port: env.GATEWAY_REPLY_PORT,
      maxBodyBytes: env.GATEWAY_REPLY_MAX_BODY_BYTES,
    },
    deliveryRecordsPerSecond: env.GATEWAY_DELIVERY_RECORDS_PER_SECOND,
    // Decrypts the signing secrets that integration snapshots carry encrypted.
    encryptionKey: integrationKeyEncryptionKey(env, new Logger('Gateway'), 'signing secrets are read'),
    rateLimit: { defaultPerMinute: env.GATEWAY_RATE_LIMIT_PER_MINUTE, redisUrl: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX },
  };
}

@Module({})
export class GatewayModule {
  static forRoot(env: GatewayEnv): DynamicModule {
    const feature = GatewayFeatureModule.forRoot(gatewayFeatureOptions(env));
    return {
      module: GatewayModule,
      imports: [
        ConfigModule.forRoot(env),
        KafkaModule.forRoot(env, gatewayKafkaOptions(env)),
        MetricsModule.forRoot(),
        feature,
        HealthModule.forRoot({ imports: [feature], probes: [GatewayHealthProbe] }),
      ],
    };
  }
}
