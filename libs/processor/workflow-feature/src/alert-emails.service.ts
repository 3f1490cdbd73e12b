import { AccessReader } from '@alert-ingestion/access';
import { AlertsDatabase, ChurnedTablesReclaimer, runCommand } from '@alert-ingestion/alerts-data';
import { ProcessorMetrics, RecurringJob, runsRole } from '@alert-ingestion/alerts-feature';
import { AlertEvent, AlertNotificationView } from '@alert-ingestion/contracts';
import { AlertNotificationsRepository, AlertSettingsRepository, NotificationFilter } from '@alert-ingestion/workflow-data';
import {
  composeAlertEmail,
  EMAIL_RECIPIENT_LEVELS,
  notificationEntries,
  notificationReason,
  NotificationUpdate,
  notificationUpdates,
  planClaim,
  planNotifications,
  planRecording,
} from '@alert-ingestion/workflow-domain';
import { ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { EmailSender, SmtpSender } from './smtp-sender';
import { WORKFLOW_OPTIONS, WorkflowOptions } from './workflow.options';

/** Notifications claimed per lease of the mailer. */
const CLAIMED_PER_LEASE = 200;

/** Where the mailer's messages go: given in tests of the service, else the SMTP transport of the settings. */
export const ALERT_MAILER = Symbol('ALERT_MAILER');

/**
 * Alert emails (docs/api-guide.md "Email on new alerts"). `record` turns alert events into pending
 * notifications (called by the consumer of alerts.events.v1, apart from alert intake, so an SMTP
 * outage never slows or blocks a payload). The mailer runs every EMAIL_POLL_MS in instances of the
 * workflow role, and sends outside every database lock and transaction:
 * 1. claim: due notifications are claimed with a lease (EMAIL_CLAIM_LEASE_SECONDS) in a short
 *    transaction that commits at once (several mailers never claim one notification at once);
 * 2. send: each recipient's bundle goes in one message with the Message-ID its bundle keeps, no
 *    connection of the pool held; a send starts only while the lease has room for it, and what is
 *    left unsent is handed back;
 * 3. record: the outcomes and their timeline entries in a second short transaction, where the claim
 *    still holds. If that fails (PostgreSQL away) it is tried again while the lease lasts, never by
 *    sending again.
 * A processor that stops between a server's acceptance and the record (a crash) is the one way a
 * message goes twice: its lease runs out and the bundle is sent again, with the same Message-ID.
 * Without SMTP_URL it records and sends nothing.
 */
@Injectable()
export class AlertEmailsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AlertEmails');
  private readonly job?: RecurringJob;
  private readonly sender?: EmailSender;
  /** Names this mailer's claims (claimed_by): the instance, then each claim's own id. */
  private readonly instance = `${hostname()}:${process.pid}`;

  constructor(
    private readonly database: AlertsDatabase,
    private readonly notifications: AlertNotificationsRepository,
    private readonly settings: AlertSettingsRepository,
    private readonly access: AccessReader,
    private readonly metrics: ProcessorMetrics,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
    @Optional() @Inject(ALERT_MAILER) sender?: EmailSender,
  ) {
    const email = options.email;
    // Only instances of the workflow role send; the others still say whether email is configured.
    if (!email || !runsRole(options.roles, 'workflow')) return;
    this.sender = sender ?? new SmtpSender({ url: email.smtpUrl, from: email.from, timeoutMs: email.smtpTimeoutMs });
    const reclaimer = new ChurnedTablesReclaimer(database, ['alert_notifications']);
    this.job = new RecurringJob(email.pollIntervalMs, this.logger, 'Sending alert emails failed', async () => {
      const sent = await this.deliverDue(() => reclaimer.changed());
      await reclaimer.reclaimIfDue();
      return sent > 0 ? `Sent ${sent} alert ${sent === 1 ? 'email' : 'emails'}` : undefined;
    });
  }

  onApplicationBootstrap(): void {
    this.job?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job?.stop();
    this.sender?.close();
  }

  /**
   * Records the notifications these events call for (new and resolved alerts of projects that send
   * email, to their owners and maintainers with an address), once per event and recipient, as one
   * command (planRecording); events older than EMAIL_EVENT_MAX_AGE_MINUTES are news no more and
   * mail nobody, and an event of a silenced alert mails nobody and says so on its timeline. Those of
   * a recipient over the hourly cap are suppressed as they are recorded, and counted as the mailer
   * counts the ones it suppresses. Returns how many were new.
   */
  async record(events: readonly AlertEvent.AlertEventValue[], now = new Date()): Promise<number> {
    const email = this.options.email;
    if (!email) return 0;
    const fresh = events.filter((event) => notificationReason(event.type) !== null && now.getTime() - Date.parse(event.occurred_at) <= email.eventMaxAgeMs);
    if (fresh.length === 0) return 0;
    const emailProjects = await this.settings.emailProjects(fresh.map((event) => String(event.project_id)));
    if (emailProjects.size === 0) return 0;
    const recipients = await this.access.membersWithEmail([...emailProjects], EMAIL_RECIPIENT_LEVELS);
    const planned = planNotifications(fresh, emailProjects, recipients, now);
    if (planned.notifications.length === 0 && planned.skipped.length === 0) return 0;
    const result = await runCommand(this.database, {
      read: (transaction) =>
        this.notifications.recordingState(
          transaction,
          planned.notifications,
          planned.skipped.map((entry) => entry.eventId),
        ),
      plan: (state) => planRecording(planned, state, now, email.policy),
      write: (_, recorded) => ({ answer: recorded ?? [], atCommit: this.notifications.recordStatements(recorded ?? []) }),
    });
    const recorded = 'answer' in result ? result.answer : [];
    this.metrics.notifications(recorded.filter((n) => n.status === 'suppressed').map((n) => n.status));
    return recorded.length;
  }

  /** Claims, sends and records what is due until nothing is; resolves how many messages went out. */
  async deliverDue(onClaim: () => void = () => undefined): Promise<number> {
    const email = this.options.email;
    const sender = this.sender;
    if (!email || !sender) return 0;
    let messages = 0;
    for (;;) {
      const claim = `${this.instance}:${randomUUID()}`;
      const claimedAt = new Date();
      // The claim and its decisions (planClaim) commit before anything is sent.
      const claimed = await runCommand(this.database, {
        read: (transaction) => this.notifications.claim(transaction, claim, CLAIMED_PER_LEASE, email.claimLeaseMs),
        plan: (due) => planClaim(due, email.policy, claimedAt, email.from),
        write: (_, decisions, due) => ({ answer: due && decisions, atCommit: this.notifications.claimStatements(claim, decisions) }),
      });
      const decisions = 'answer' in claimed ? claimed.answer : null;
      if (!decisions) return messages;
      onClaim();
      this.metrics.notifications(decisions.settled.map((update) => update.status));
      const paths = await this.access.projectPaths(decisions.sends.flatMap((send) => send.notifications.map((n) => n.projectId)));
      // A send starts only while the lease still has room for a whole SMTP exchange (connection,
      // greeting, each answer); the claim's first always does, so every claim makes progress.
      const sendBy = claimedAt.getTime() + email.claimLeaseMs - 4 * email.smtpTimeoutMs;
      const now = () => new Date();
      const updates: NotificationUpdate[] = [];
      for (const [index, send] of decisions.sends.entries()) {
        if (index > 0 && Date.now() > sendBy) {
          updates.push(...notificationUpdates(send, undefined, now(), email.policy));
          continue;
        }
        const notifications = send.notifications.map((n) => ({ ...n, projectPath: paths.get(n.projectId) ?? `project ${n.projectId}` }));
        const outcome = await sender.send(composeAlertEmail({ ...send, notifications }, email.consoleUrl));
        if (outcome.ok) messages++;
        else this.logger.warn(`Email to ${send.recipient} refused: ${outcome.error}`);
        updates.push(...notificationUpdates(send, outcome, now(), email.policy));
      }
      const sent = decisions.sends.flatMap((send) => send.notifications.map((n) => ({ ...n, subject: { alertId: n.alert.id } })));
      await this.recordOutcome(claim, updates, notificationEntries(sent, updates, now()), claimedAt.getTime() + email.claimLeaseMs);
    }
  }

  /** A page of the project's notifications, newest first. */
  list(projectId: bigint, filter: NotificationFilter, perPage: number, offset: number): Promise<{ notifications: AlertNotificationView[]; total: number }> {
    return this.notifications.list(projectId, filter, perPage, offset);
  }

  /**
   * Records a claim's outcomes; while PostgreSQL does not answer, tries again (never sending again)
   * until the lease ends, after which the claim is another mailer's to take.
   */
  private async recordOutcome(claim: string, updates: NotificationUpdate[], entries: ActivityEntryOut[], leaseEnd: number): Promise<void> {
    for (let waitMs = 200; ; waitMs = Math.min(5_000, waitMs * 2)) {
      try {
        const written = await this.notifications.recordOutcome(claim, updates, entries);
        this.metrics.notifications(updates.filter((update) => written.has(update.id)).map((update) => update.status));
        return;
      } catch (error) {
        if (Date.now() + waitMs >= leaseEnd) throw error;
        this.logger.warn(`Recording the outcome of ${updates.length} alert emails failed (tried again in ${waitMs} ms): ${error instanceof Error ? error.message : String(error)}`);
        await sleep(waitMs);
      }
    }
  }
}
