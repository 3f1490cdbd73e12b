import { ProcessorMetrics, runsRole } from '@alert-ingestion/alerts-feature';
import { Topic } from '@alert-ingestion/contracts';
import { BatchSubscription, ConsumerGroup, KAFKA_CLIENT, KafkaBatchTransport, KafkaNames } from '@alert-ingestion/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { AlertProcessorEnv } from './alert-processor.env';

/**
 * What the processor consumes through its transport: with the intake role raw alerts (its
 * pipeline) and the gateway's delivery records. The workflow's consumers of alert events are its
 * services' own (IncidentAutomationService, AlertEmailEventsConsumer), which run only on demand.
 */
export function processorSubscriptions(env: AlertProcessorEnv, metrics: ProcessorMetrics): BatchSubscription[] {
  const intake: BatchSubscription[] = [
    {
      topic: Topic.RawAlerts,
      group: ConsumerGroup.AlertProcessor,
      // A new group starts at the beginning: raw alerts accepted before the first processor started are not lost.
      fromBeginning: true,
      config: {
        minBytes: 1,
        maxWaitTimeInMs: env.PROCESSOR_MAX_WAIT_MS,
        maxBytesPerPartition: env.PROCESSOR_MAX_BYTES_PER_PARTITION,
        maxBytes: env.PROCESSOR_MAX_BYTES,
        sessionTimeout: env.PROCESSOR_SESSION_TIMEOUT_MS,
        heartbeatInterval: env.PROCESSOR_HEARTBEAT_INTERVAL_MS,
      },
      maxChunkMessages: env.PROCESSOR_MAX_BATCH_MESSAGES,
      partitionsConsumedConcurrently: env.PROCESSOR_PARTITIONS_CONCURRENTLY,
      commitIntervalMs: env.PROCESSOR_COMMIT_INTERVAL_MS,
      onGroupJoin: () => metrics.partitionsReassigned(),
    },
    {
      topic: Topic.Deliveries,
      group: ConsumerGroup.AlertProcessorDeliveries,
      fromBeginning: true,
      config: { sessionTimeout: env.PROCESSOR_SESSION_TIMEOUT_MS, heartbeatInterval: env.PROCESSOR_HEARTBEAT_INTERVAL_MS, maxWaitTimeInMs: 500 },
      commitIntervalMs: env.PROCESSOR_COMMIT_INTERVAL_MS,
    },
  ];
  return runsRole(env.PROCESSOR_ROLES, 'intake') ? intake : [];
}

/**
 * The processor's Kafka transport (one BatchConsumer per subscription), a provider so that the app
 * connects it as its microservice and `/healthz` sees whether its consumers still follow their topics.
 */
@Module({})
export class ProcessorConsumersModule {
  static forRoot(env: AlertProcessorEnv): DynamicModule {
    return {
      module: ProcessorConsumersModule,
      providers: [
        {
          provide: KafkaBatchTransport,
          inject: [KAFKA_CLIENT, KafkaNames, ProcessorMetrics],
          useFactory: (kafka: Kafka, names: KafkaNames, metrics: ProcessorMetrics) => new KafkaBatchTransport(kafka, names, processorSubscriptions(env, metrics)),
        },
      ],
      exports: [KafkaBatchTransport],
    };
  }
}
