import { AccessModule } from '@alert-ingestion/access';
import { SqlQuery } from '@alert-ingestion/sql';
import { AlertsDatabase } from '@alert-ingestion/alerts-data';
import { ConfigModule } from '@alert-ingestion/config';
import { ReplySender } from '@alert-ingestion/alert-replies';
import { AlertEventRelayHealthProbe, AlertsFeatureModule, IncidentEventRelayHealthProbe, PostgresHealthProbe, ProcessorMetrics, runsRole } from '@alert-ingestion/alerts-feature';
import { AlertEmailEventsHealthProbe, IncidentAutomationHealthProbe, WorkflowModule } from '@alert-ingestion/workflow-feature';
import { HealthModule } from '@alert-ingestion/http';
import { KafkaConsumersHealthProbe, KafkaModule } from '@alert-ingestion/kafka';
import { MetricsModule } from '@alert-ingestion/metrics';
import { OutboxRelaySettings } from '@alert-ingestion/outbox';
import { OncallEventRelayHealthProbe, OncallFeatureModule } from '@alert-ingestion/oncall-feature';
import { EscalationEventsHealthProbe, EscalationModule } from '@alert-ingestion/escalation-feature';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { AlertProcessorEnv } from './alert-processor.env';
import { AlertNotificationsController } from './alert-notifications.controller';
import { AlertsController } from './alerts.controller';
import { DeliveriesController } from './deliveries.controller';
import { IncidentsController } from './incidents.controller';
import { DeliveryRecordsConsumer } from './delivery-records.consumer';
import { ProcessorConsumersModule } from './processor-consumers.module';
import { RawAlertConsumer } from './raw-alert.consumer';
import { OncallSchedulesController } from './oncall-schedules.controller';
import { EscalationPolicyController, OncallConfigController, UserPagingController } from './escalation.controller';
import { SilencesController } from './silences.controller';
import { TimelineController } from './timeline.controller';

@Module({})
export class AlertProcessorModule {
  static forRoot(env: AlertProcessorEnv): DynamicModule {
    const consumers = ProcessorConsumersModule.forRoot(env);
    const workflow = WorkflowModule.forRoot({
      roles: env.PROCESSOR_ROLES,
      email: env.SMTP_URL
        ? {
            smtpUrl: env.SMTP_URL,
            from: env.EMAIL_FROM,
            consoleUrl: env.CONSOLE_URL,
            policy: {
              bundleMs: env.EMAIL_BUNDLE_SECONDS * 1000,
              hourlyCap: env.EMAIL_HOURLY_CAP,
              maxAttempts: env.EMAIL_MAX_ATTEMPTS,
              retryMs: env.EMAIL_RETRY_MS,
              maxRetryMs: env.EMAIL_MAX_RETRY_MS,
            },
            pollIntervalMs: env.EMAIL_POLL_MS,
            smtpTimeoutMs: env.EMAIL_SMTP_TIMEOUT_MS,
            claimLeaseMs: env.EMAIL_CLAIM_LEASE_SECONDS * 1000,
            eventMaxAgeMs: env.EMAIL_EVENT_MAX_AGE_MINUTES * 60_000,
          }
        : undefined,
    });
    // Escalation builds on the workflow (its consumers' base, its SMTP settings) and on call.
    const escalation = EscalationModule.forRoot(
      {
        roles: env.PROCESSOR_ROLES,
        clock: { minuteMs: env.ESCALATION_MINUTE_MS },
        pollIntervalMs: env.ESCALATION_POLL_MS,
        leaseMs: env.ESCALATION_CLAIM_LEASE_SECONDS * 1000,
        claimLimit: 100,
        lateMs: env.ESCALATION_LATE_SECONDS * 1000,
        pageRetry: { maxAttempts: env.ESCALATION_PAGE_MAX_ATTEMPTS, retryMs: env.ESCALATION_PAGE_RETRY_MS, maxRetryMs: env.ESCALATION_PAGE_MAX_RETRY_MS },
        webhook: { timeoutMs: env.ESCALATION_WEBHOOK_TIMEOUT_MS, allowInternal: env.ESCALATION_WEBHOOK_ALLOW_PRIVATE },
        email: env.SMTP_URL ? { smtpUrl: env.SMTP_URL, from: env.EMAIL_FROM, smtpTimeoutMs: env.EMAIL_SMTP_TIMEOUT_MS } : undefined,
        consoleUrl: env.CONSOLE_URL,
      },
      workflow,
    );
    // Every outbox relay of the processor batches, retries and judges itself alike.
    const relay: OutboxRelaySettings = {
      batchSize: env.EVENT_RELAY_BATCH_SIZE,
      lingerMs: env.EVENT_RELAY_LINGER_MS,
      pollIntervalMs: env.EVENT_RELAY_POLL_MS,
      initialRetryMs: env.EVENT_RELAY_RETRY_MS,
      maxRetryMs: env.EVENT_RELAY_MAX_RETRY_MS,
      maxAttempts: env.EVENT_RELAY_MAX_ATTEMPTS,
      stallAfterMs: env.EVENT_RELAY_STALL_SECONDS * 1000,
    };
    return {
      module: AlertProcessorModule,
      imports: [
        ConfigModule.forRoot(env),
        // Not idempotent: kafkajs's idempotent producer loses or rejects messages when sends to one
        // partition overlap (kafkajs issues 598, 1005), and dead letters overlap (several partitions
        // concurrently). A duplicate dead letter from a retried send only repeats a record.
        KafkaModule.forRoot(env, { producer: { name: 'ProcessorProducer', idempotent: false } }),
        MetricsModule.forRoot(),
        AlertsFeatureModule.forRoot({
          roles: env.PROCESSOR_ROLES,
          databaseUrl: env.DATABASE_URL,
          databasePoolSize: env.DATABASE_POOL_SIZE,
          integrationLookupTimeoutMs: env.INTEGRATION_LOOKUP_TIMEOUT_MS,
          processedRetention: {
            retentionMs: env.PROCESSED_REQUEST_RETENTION_HOURS * 3_600_000,
            sweepIntervalMs: env.PROCESSED_REQUEST_SWEEP_MINUTES * 60_000,
          },
          heartbeat: { checkIntervalMs: env.HEARTBEAT_CHECK_INTERVAL_MS, minuteMs: env.HEARTBEAT_MINUTE_MS },
          deliveries: {
            keepPerIntegration: env.DELIVERIES_KEEP_PER_INTEGRATION,
            retentionMs: env.DELIVERIES_RETENTION_HOURS * 3_600_000,
            sweepIntervalMs: env.DELIVERIES_SWEEP_MINUTES * 60_000,
          },
          relay,
          relayShards: { count: env.EVENT_RELAY_SHARDS, rebalanceIntervalMs: env.EVENT_RELAY_REBALANCE_MS },
        }),
        workflow,
        escalation,
        // On call beside the alerts it will page for, in the processor's database (docs/architecture.md "On call").
        OncallFeatureModule.forRoot({
          databaseUrl: env.DATABASE_URL,
          publishes: runsRole(env.PROCESSOR_ROLES, 'workflow'),
          handoffCheckIntervalMs: env.ONCALL_HANDOFF_CHECK_MS,
          relay,
          consoleUrl: env.CONSOLE_URL,
        }),
        AccessModule.forRoot({
          adminToken: env.ADMIN_TOKEN,
          sqlQuery: {
            inject: [AlertsDatabase],
            useFactory:
              (database: AlertsDatabase): SqlQuery =>
              async <Row>(text: string, values: readonly unknown[]) =>
                (await database.pool.query(text, [...values])).rows as Row[],
          },
        }),
        consumers,
        HealthModule.forRoot({
          imports: [consumers, workflow, escalation],
          probes: [
            PostgresHealthProbe,
            KafkaConsumersHealthProbe,
            // The relays run with intake (PROCESSOR_ROLES).
            ...(runsRole(env.PROCESSOR_ROLES, 'intake') ? [AlertEventRelayHealthProbe, IncidentEventRelayHealthProbe] : []),
            ...(runsRole(env.PROCESSOR_ROLES, 'workflow')
              ? [IncidentAutomationHealthProbe, EscalationEventsHealthProbe, OncallEventRelayHealthProbe, ...(env.SMTP_URL ? [AlertEmailEventsHealthProbe] : [])]
              : []),
          ],
        }),
      ],
      controllers: [
        AlertsController,
        IncidentsController,
        TimelineController,
        SilencesController,
        OncallSchedulesController,
        EscalationPolicyController,
        OncallConfigController,
        UserPagingController,
        DeliveriesController,
        AlertNotificationsController,
        RawAlertConsumer,
        DeliveryRecordsConsumer,
      ],
      providers: [
        {
          // The reply hop: each batch's replies posted to the gateway instances waiting for them.
          provide: ReplySender,
          inject: [ProcessorMetrics],
          useFactory: (metrics: ProcessorMetrics) =>
            new ReplySender({
              timeoutMs: env.PROCESSOR_REPLY_TIMEOUT_MS,
              counted: (outcome, count) => metrics.replied(outcome, count),
              logger: new Logger('ReplySender'),
            }),
        },
      ],
    };
  }
}
