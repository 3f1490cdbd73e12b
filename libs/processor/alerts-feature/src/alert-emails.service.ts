import { AccessReader } from '@alert-ingestion/access';
import { AlertNotificationsRepository, NotificationFilter } from '@alert-ingestion/alerts-data';
import {
  composeAlertEmail,
  EMAIL_RECIPIENT_LEVELS,
  notificationEntries,
  notificationReason,
  notificationUpdates,
  planDeliveries,
  planNotifications,
  planRecording,
} from '@alert-ingestion/alerts-domain';
import { AlertEvent, AlertNotificationView } from '@alert-ingestion/contracts';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { ProcessorMetrics } from './processor-metrics';
import { RecurringJob } from './recurring-job';
import { runsRole } from './processor-roles';
import { AlertMailer, SmtpMailer } from './smtp-mailer';

/** Notifications claimed per transaction of the mailer. */
const CLAIMED_PER_TRANSACTION = 200;

/** Where the mailer's messages go: given in tests of the service, else the SMTP transport of the settings. */
export const ALERT_MAILER = Symbol('ALERT_MAILER');

/**
 * Alert emails (docs/api-guide.md "Email on new alerts"). `record` turns alert events into pending
 * notifications (called by the consumer of alerts.events.v1, apart from alert intake, so an SMTP
 * outage never slows or blocks a payload). The mailer runs every EMAIL_POLL_MS on every instance:
 * it claims due notifications (FOR UPDATE SKIP LOCKED: one instance sends each), bundles them per
 * recipient, applies the hourly cap, sends, and records sent / pending with backoff / failed /
 * suppressed with the timeline entries in the same transaction. A crash between the server's
 * acceptance and the commit sends that message again (at least once, never lost).
 * Without SMTP_URL it records and sends nothing; the mailer runs in instances of the workflow role.
 */
@Injectable()
export class AlertEmailsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AlertEmails');
  private readonly job?: RecurringJob;
  private readonly mailer?: AlertMailer;

  constructor(
    private readonly notifications: AlertNotificationsRepository,
    private readonly access: AccessReader,
    private readonly metrics: ProcessorMetrics,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
    @Optional() @Inject(ALERT_MAILER) mailer?: AlertMailer,
  ) {
    const email = options.email;
    // Only instances of the workflow role send; the others still say whether email is configured.
    if (!email || !runsRole(options.roles, 'workflow')) return;
    this.mailer = mailer ?? new SmtpMailer({ url: email.smtpUrl, from: email.from, timeoutMs: email.smtpTimeoutMs });
    this.job = new RecurringJob(email.pollIntervalMs, this.logger, 'Sending alert emails failed', async () => {
      const sent = await this.deliverDue();
      return sent > 0 ? `Sent ${sent} alert ${sent === 1 ? 'email' : 'emails'}` : undefined;
    });
  }

  /** Whether alert emails can be sent at all (SMTP_URL is set). */
  get configured(): boolean {
    return this.options.email !== undefined;
  }

  onApplicationBootstrap(): void {
    this.job?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job?.stop();
    this.mailer?.close();
  }

  /**
   * Records the notifications these events call for (new and resolved alerts of projects that send
   * email, to their owners and maintainers with an address), once per event and recipient; events
   * older than EMAIL_EVENT_MAX_AGE_MINUTES are news no more and mail nobody. Those of a recipient
   * over the hourly cap are suppressed as they are recorded (planRecording), and counted as the
   * mailer counts the ones it suppresses. Returns how many were new.
   */
  async record(events: readonly AlertEvent.AlertEventValue[], now = new Date()): Promise<number> {
    const email = this.options.email;
    if (!email) return 0;
    const fresh = events.filter((event) => notificationReason(event.type) !== null && now.getTime() - Date.parse(event.occurred_at) <= email.eventMaxAgeMs);
    if (fresh.length === 0) return 0;
    const emailProjects = await this.notifications.emailProjects(fresh.map((event) => String(event.project_id)));
    if (emailProjects.size === 0) return 0;
    const recipients = await this.access.membersWithEmail([...emailProjects], EMAIL_RECIPIENT_LEVELS);
    const planned = planNotifications(fresh, emailProjects, recipients);
    const recorded = await this.notifications.record(planned, (mail) => planRecording(planned, mail, now, email.policy), now);
    this.metrics.notifications(recorded.filter((status) => status === 'suppressed'));
    return recorded.length;
  }

  /** Sends what is due until nothing is; resolves how many messages went out. */
  async deliverDue(): Promise<number> {
    const email = this.options.email;
    const mailer = this.mailer;
    if (!email || !mailer) return 0;
    let messages = 0;
    for (;;) {
      const result = await this.notifications.deliverDue(CLAIMED_PER_TRANSACTION, async (due, sentLastHour) => {
        const now = new Date();
        const updates = [];
        for (const decision of planDeliveries(due, sentLastHour, email.policy)) {
          const outcome = decision.action === 'send' ? await mailer.send(composeAlertEmail(decision.recipient, decision.notifications, email.consoleUrl)) : null;
          if (outcome?.ok) messages++;
          if (outcome && !outcome.ok) this.logger.warn(`Email to ${decision.recipient} refused: ${outcome.error}`);
          updates.push(...notificationUpdates(decision, outcome, now, email.policy));
        }
        return { updates, entries: notificationEntries(due, updates, now) };
      });
      if (result === null) return messages;
      this.metrics.notifications(result.updates.map((update) => update.status));
    }
  }

  /** A page of the project's notifications, newest first. */
  list(projectId: bigint, filter: NotificationFilter, perPage: number, offset: number): Promise<{ notifications: AlertNotificationView[]; total: number }> {
    return this.notifications.list(projectId, filter, perPage, offset);
  }
}
