import { ProcessorMetrics, runsRole, WorkflowConsumerName } from '@alert-ingestion/alerts-feature';
import { AlertEvent, Topic } from '@alert-ingestion/contracts';
import { ConsumedChunk, ConsumerGroup, KAFKA_CLIENT, KafkaNames, OnDemandConsumer } from '@alert-ingestion/kafka';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { WORKFLOW_OPTIONS, WorkflowOptions } from './workflow.options';

/** How often a workflow consumer asks whether any project has its setting on (so how soon it starts once one has). */
export const ALERT_WORKFLOW_DEMAND_INTERVAL_MS = 1_000;

/** Waits between attempts at a chunk whose handling failed: the first, then doubling up to the last. */
export const ALERT_WORKFLOW_RETRY_MS = { first: 200, max: 5_000 };

/** A workflow consumer as log lines and `/healthz` name it: its metric label in words (`incident automation`). */
export function workflowConsumerTitle(consumer: WorkflowConsumerName): string {
  return consumer.replace(/_/g, ' ');
}

/** What one of the alert workflow's consumers is, besides what it does with its events. */
export interface AlertWorkflowConsumerSettings {
  /** Names it in log lines, in `/healthz` and in alert_processor_workflow_consuming. */
  name: WorkflowConsumerName;
  group: ConsumerGroup;
  /** It serves alert emails: an instance without SMTP_URL runs none. */
  needsEmail?: boolean;
}

/** What every workflow consumer is built with: the Kafka client, the names, the metrics, and whether this instance runs the workflow. */
@Injectable()
export class AlertWorkflowConsumers {
  constructor(
    @Inject(KAFKA_CLIENT) readonly kafka: Kafka,
    readonly names: KafkaNames,
    readonly metrics: ProcessorMetrics,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
  ) {}

  /** Whether this instance runs a consumer of these settings: of the workflow role (PROCESSOR_ROLES), with email configured where it serves email. */
  runs(settings: AlertWorkflowConsumerSettings): boolean {
    return runsRole(this.options.roles, 'workflow') && (!settings.needsEmail || this.options.email !== undefined);
  }
}

/**
 * A consumer of alerts.events.v1 for the alert workflow (the incident automation, the alert
 * emails), in a group of its own and only while some project has its setting on (`wanted`,
 * OnDemandConsumer): with every setting off, the workflow costs intake no fetch and no decode per
 * event. Off the receive path, so under load each fetch waits (up to its usual 500 ms) for about
 * half a megabyte of events instead of returning with the first few: every chunk costs a few
 * transactions whatever its size, so larger chunks leave more of PostgreSQL to intake. A chunk
 * holds at most 500 events, so one transaction stays short. A new group reads from the beginning,
 * so no event published before it first joined is missed; the handlers' own rules (a setting
 * applies from its change, old events mail nobody) keep a replay from acting on old news.
 *
 * One failure policy for every workflow consumer: a chunk whose handling fails (PostgreSQL down or
 * restarting, a deadlock that outlasted its retries) is tried again in place, after a wait that
 * doubles up to ALERT_WORKFLOW_RETRY_MS.max, heartbeating so the group keeps the partition, until
 * it succeeds or the consumer stops; the partition holds meanwhile and nothing is skipped. Handlers
 * are idempotent (an event handled twice changes nothing twice), so a chunk delivered again after a
 * crash does no harm. An event that breaks its contract is logged and left out: the relay publishes
 * only what the processor wrote.
 *
 * Started with the app and stopped with it; healthy while idle or following its topic.
 */
export abstract class AlertWorkflowConsumerService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly consumerName: WorkflowConsumerName;
  protected readonly consumer?: OnDemandConsumer<Topic.AlertEvents>;
  protected readonly logger: Logger;

  constructor(consumers: AlertWorkflowConsumers, settings: AlertWorkflowConsumerSettings) {
    this.consumerName = settings.name;
    this.logger = new Logger(workflowConsumerTitle(settings.name));
    if (!consumers.runs(settings)) return;
    const { kafka, names, metrics } = consumers;
    this.consumer = new OnDemandConsumer<Topic.AlertEvents>(kafka, {
      name: workflowConsumerTitle(settings.name),
      topic: Topic.AlertEvents,
      names,
      groupId: names.group(settings.group),
      fromBeginning: true,
      readyWhen: 'run',
      commitIntervalMs: 1_000,
      config: { minBytes: 512 * 1024, maxWaitTimeInMs: 500, sessionTimeout: 10_000, heartbeatInterval: 1_000 },
      maxChunkMessages: 500,
      logger: this.logger,
      wanted: () => this.wanted(),
      demandIntervalMs: ALERT_WORKFLOW_DEMAND_INTERVAL_MS,
      handle: (chunk) => this.handleChunk(chunk),
    });
    metrics.workflowConsumer(settings.name, this.consumer);
  }

  /** Whether any project has a setting on that this consumer serves (OnDemandConsumerOptions.wanted). */
  protected abstract wanted(): Promise<boolean>;

  /** Acts on a chunk's alert events (never empty); idempotent. */
  protected abstract handle(events: AlertEvent.AlertEventValue[]): Promise<void>;

  get healthy(): boolean {
    return this.consumer?.healthy ?? true;
  }

  onApplicationBootstrap(): void {
    this.consumer?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
  }

  private async handleChunk(chunk: ConsumedChunk<Topic.AlertEvents>): Promise<void> {
    const events: AlertEvent.AlertEventValue[] = [];
    for (const message of chunk.messages) {
      try {
        events.push(chunk.decode(message));
      } catch (error) {
        this.logger.warn(`Skipped ${chunk.topic}/${chunk.partition}@${message.offset}: ${describe(error)}`);
      }
    }
    if (events.length === 0) return;
    for (let attempt = 1, waitMs = ALERT_WORKFLOW_RETRY_MS.first; chunk.isRunning(); attempt++, waitMs = Math.min(ALERT_WORKFLOW_RETRY_MS.max, waitMs * 2)) {
      try {
        await this.handle(events);
        if (attempt > 1) this.logger.log(`Handled ${events.length} events of ${chunk.topic}/${chunk.partition} at attempt ${attempt}`);
        return;
      } catch (error) {
        this.logger.warn(`Handling ${events.length} events of ${chunk.topic}/${chunk.partition} failed (attempt ${attempt}, tried again in ${waitMs} ms): ${describe(error)}`);
        await sleep(waitMs);
        await chunk.heartbeat().catch(() => undefined);
      }
    }
    // Stopping before the chunk was handled: a handler that returned would let its offsets be committed.
    throw new Error(`The ${workflowConsumerTitle(this.consumerName)} consumer stopped before ${chunk.topic}/${chunk.partition}'s events were handled; they are read again`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
