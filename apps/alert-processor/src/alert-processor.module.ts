import { ConfigModule } from '@alert-ingestion/config';
import { AlertsFeatureModule, PostgresHealthProbe } from '@alert-ingestion/alerts-feature';
import { HealthModule } from '@alert-ingestion/http';
import { KafkaHealthProbe, KafkaModule } from '@alert-ingestion/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { AlertProcessorEnv } from './alert-processor.env';
import { AlertsController } from './alerts.controller';

@Module({})
export class AlertProcessorModule {
  static forRoot(env: AlertProcessorEnv): DynamicModule {
    return {
      module: AlertProcessorModule,
      imports: [
        ConfigModule.forRoot(env),
        KafkaModule.forRoot(env),
        AlertsFeatureModule.forRoot({
          databaseUrl: env.DATABASE_URL,
          databasePoolSize: env.DATABASE_POOL_SIZE,
          topicPrefix: env.KAFKA_TOPIC_PREFIX,
          adminToken: env.ADMIN_TOKEN,
          consumer: {
            maxBatchMessages: env.PROCESSOR_MAX_BATCH_MESSAGES,
            maxWaitTimeInMs: env.PROCESSOR_MAX_WAIT_MS,
            maxBytesPerPartition: env.PROCESSOR_MAX_BYTES_PER_PARTITION,
            maxBytes: env.PROCESSOR_MAX_BYTES,
            partitionsConsumedConcurrently: env.PROCESSOR_PARTITIONS_CONCURRENTLY,
            sessionTimeout: env.PROCESSOR_SESSION_TIMEOUT_MS,
            heartbeatInterval: env.PROCESSOR_HEARTBEAT_INTERVAL_MS,
            commitIntervalMs: env.PROCESSOR_COMMIT_INTERVAL_MS,
          },
          integrationLookupTimeoutMs: env.INTEGRATION_LOOKUP_TIMEOUT_MS,
          processedRetention: {
            retentionMs: env.PROCESSED_REQUEST_RETENTION_HOURS * 3_600_000,
            sweepIntervalMs: env.PROCESSED_REQUEST_SWEEP_MINUTES * 60_000,
          },
          relay: {
            batchSize: env.EVENT_RELAY_BATCH_SIZE,
            lingerMs: env.EVENT_RELAY_LINGER_MS,
            pollIntervalMs: env.EVENT_RELAY_POLL_MS, retryIntervalMs: env.EVENT_RELAY_RETRY_MS },
        }),
        HealthModule.forRoot({ probes: [PostgresHealthProbe, KafkaHealthProbe] }),
      ],
      controllers: [AlertsController],
    };
  }
}
