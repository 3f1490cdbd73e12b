import { AlertEvent, Topic } from '@alert-ingestion/contracts';
import { ConsumedChunk, KafkaNames, OnDemandConsumer } from '@alert-ingestion/kafka';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { ProcessorMetrics, WorkflowConsumerName } from './processor-metrics';

/** How often a workflow consumer asks whether any project has its setting on (so how soon it starts once one has). */
export const ALERT_WORKFLOW_DEMAND_INTERVAL_MS = 1_000;

/** A workflow consumer as log lines and `/healthz` name it: its metric label in words (`incident automation`). */
export function workflowConsumerTitle(consumer: WorkflowConsumerName): string {
  return consumer.replace(/_/g, ' ');
}

export interface AlertWorkflowConsumerOptions {
  /** Names it in log lines, in `/healthz` and in alert_processor_workflow_consuming. */
  consumer: WorkflowConsumerName;
  metrics: ProcessorMetrics;
  groupId: string;
  logger: Logger;
  /** Whether any project has a setting on that the handler serves (OnDemandConsumerOptions.wanted). */
  wanted: () => Promise<boolean>;
  /** The chunk's alert events, those that break their contract logged and left out (never empty). */
  handle: (events: AlertEvent.AlertEventValue[], chunk: ConsumedChunk<Topic.AlertEvents>) => Promise<void>;
}

/**
 * A consumer of alerts.events.v1 for the alert workflow (the incident automation, the alert
 * emails), in a group of its own and only while some project has its setting on (OnDemandConsumer):
 * with every setting off, the workflow costs intake no fetch and no decode per event. Off the
 * receive path, so under load each fetch waits (up to its usual 500 ms) for about half a megabyte
 * of events instead of returning with the first few: every chunk costs a few transactions whatever
 * its size, so larger chunks leave more of PostgreSQL to intake. A chunk holds at most 500 events,
 * so one transaction stays short. A new group reads from the beginning, so no event published
 * before it first joined is missed; the handlers' own rules (a setting applies from its change,
 * old events mail nobody) keep a replay from acting on old news.
 */
export function alertWorkflowConsumer(kafka: Kafka, names: KafkaNames, options: AlertWorkflowConsumerOptions): OnDemandConsumer<Topic.AlertEvents> {
  const { logger, handle } = options;
  const consumer = new OnDemandConsumer<Topic.AlertEvents>(kafka, {
    name: workflowConsumerTitle(options.consumer),
    topic: Topic.AlertEvents,
    names,
    groupId: options.groupId,
    fromBeginning: true,
    readyWhen: 'run',
    commitIntervalMs: 1_000,
    config: { minBytes: 512 * 1024, maxWaitTimeInMs: 500, sessionTimeout: 10_000, heartbeatInterval: 1_000 },
    maxChunkMessages: 500,
    logger,
    wanted: options.wanted,
    demandIntervalMs: ALERT_WORKFLOW_DEMAND_INTERVAL_MS,
    handle: async (chunk) => {
      const events: AlertEvent.AlertEventValue[] = [];
      for (const message of chunk.messages) {
        try {
          events.push(chunk.decode(message));
        } catch (error) {
          // The relay publishes only what the processor wrote; a record that is no alert event is none of ours.
          logger.warn(`Skipped ${chunk.topic}/${chunk.partition}@${message.offset}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (events.length > 0) await handle(events, chunk);
    },
  });
  options.metrics.workflowConsumer(options.consumer, consumer);
  return consumer;
}

/**
 * A service of the alert workflow that owns an alertWorkflowConsumer (none in an instance without
 * the workflow role): started with the app, stopped with it, healthy while idle or following its topic.
 */
export abstract class AlertWorkflowConsumerService implements OnApplicationBootstrap, OnModuleDestroy {
  /** Its consumer's name (AlertWorkflowConsumerOptions.consumer), also its `/healthz` probe's. */
  abstract readonly consumerName: WorkflowConsumerName;
  protected abstract readonly consumer?: OnDemandConsumer<Topic.AlertEvents>;

  get healthy(): boolean {
    return this.consumer?.healthy ?? true;
  }

  onApplicationBootstrap(): void {
    this.consumer?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
  }
}
