import { ALERT_ACTIONS } from '@alert-ingestion/alerts-domain';
import { REPLY_OUTCOMES, ReplyOutcome } from '@alert-ingestion/alert-replies';
import { NOTIFICATION_STATUSES, NotificationStatus } from '@alert-ingestion/contracts';
import { counter, gauge, histogram } from '@alert-ingestion/metrics';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { OnDemandState } from '@alert-ingestion/kafka';
import { BatchOutcome } from './raw-alert-batch.processor';

/** The alert workflow's consumers of alerts.events.v1, as their metric labels them. */
export type WorkflowConsumerName = 'incident_automation' | 'alert_email_events' | 'escalation_events';

/** The alert processor's consumer metrics (docs/operating.md "Metrics"); the event relay's are the outbox's. */
export class ProcessorMetrics {
  private readonly alerts: Counter<'action'>;
  private readonly batchMessages: Histogram;
  private readonly batchDuration: Histogram;
  private readonly consumerLag: Gauge<'partition'>;
  private readonly deadLetters: Counter;
  private readonly replies: Counter<'outcome'>;
  private readonly notificationsTotal: Counter<'status'>;
  /** The alert workflow's consumers of this instance, by the label they are reported under. */
  private readonly workflowConsumers = new Map<WorkflowConsumerName, { readonly state: OnDemandState }>();

  constructor(registry: Registry) {
    this.alerts = counter(registry, 'alert_processor_alerts_total');
    for (const action of ALERT_ACTIONS) this.alerts.inc({ action }, 0);
    this.batchMessages = histogram(registry, 'alert_processor_batch_messages');
    this.batchDuration = histogram(registry, 'alert_processor_batch_duration_seconds');
    this.consumerLag = gauge(registry, 'alert_processor_consumer_lag_messages');
    this.deadLetters = counter(registry, 'alert_processor_dead_letters_total');
    this.replies = counter(registry, 'alert_processor_replies_total');
    for (const outcome of REPLY_OUTCOMES) this.replies.inc({ outcome }, 0);
    this.notificationsTotal = counter(registry, 'alert_processor_notifications_total');
    for (const status of NOTIFICATION_STATUSES) this.notificationsTotal.inc({ status }, 0);
    const consumers = this.workflowConsumers;
    gauge(registry, 'alert_processor_workflow_consuming', function () {
      for (const [consumer, source] of consumers) this.set({ consumer }, source.state === 'consuming' ? 1 : 0);
    });
  }

  /** Reports whether the workflow consumer `consumer` reads events (alert_processor_workflow_consuming). */
  workflowConsumer(consumer: WorkflowConsumerName, source: { readonly state: OnDemandState }): void {
    this.workflowConsumers.set(consumer, source);
  }

  /** A batch of `messages` raw alert messages was stored in `seconds`, with this outcome. */
  batchStored(messages: number, seconds: number, outcome: BatchOutcome): void {
    this.batchMessages.observe(messages);
    this.batchDuration.observe(seconds);
    for (const action of ALERT_ACTIONS) {
      if (outcome.actions[action] > 0) this.alerts.inc({ action }, outcome.actions[action]);
    }
  }

  /** Messages of `partition` after the last one stored: its high watermark minus the next offset. */
  lag(partition: number, highWatermark: string, nextOffset: string): void {
    const lag = BigInt(highWatermark) - BigInt(nextOffset);
    this.consumerLag.set({ partition }, Number(lag > 0n ? lag : 0n));
  }

  /** After a rebalance: partitions this instance no longer consumes are another's to report. */
  partitionsReassigned(): void {
    this.consumerLag.reset();
  }

  /** Alert email notifications the mailer handled, by their new status (`pending`: refused, to be retried). */
  notifications(statuses: readonly NotificationStatus[]): void {
    for (const status of statuses) this.notificationsTotal.inc({ status });
  }

  deadLettered(count: number): void {
    if (count > 0) this.deadLetters.inc(count);
  }

  /** `count` replies posted to a gateway had `outcome`. */
  replied(outcome: ReplyOutcome, count: number): void {
    if (count > 0) this.replies.inc({ outcome }, count);
  }
}
