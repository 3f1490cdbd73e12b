import { AccessReader } from '@alert-ingestion/access';
import { ActivityEntryOut, unchanged } from '@alert-ingestion/alerts-domain';
import { AlertsDatabase, ChurnedTablesReclaimer, runCommand } from '@alert-ingestion/alerts-data';
import { answered, RecurringJob, runsRole } from '@alert-ingestion/alerts-feature';
import { EscalationsRepository } from '@alert-ingestion/escalation-data';
import { ClaimChanges, PageDelivery, pageEntries, PageUpdate, pageUpdate, planEngineClaim } from '@alert-ingestion/escalation-domain';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { EscalationMetrics } from './escalation-metrics';
import { ESCALATION_OPTIONS, EscalationOptions } from './escalation.options';
import { PageSenders } from './page-senders';

/** Pages sent at once by one claim. */
const SEND_CONCURRENCY = 8;
/** Claims one round takes at most before it leaves the rest to the next round. */
const CLAIMS_PER_ROUND = 20;

/**
 * The escalation engine (docs/architecture.md "Escalation"): every ESCALATION_POLL_MS, in instances
 * of the workflow role, it
 * 1. claims, as one command (planEngineClaim): due runs and due pages, FOR UPDATE SKIP LOCKED so
 *    that several engines never take the same step or page, with their alerts FOR UPDATE so that an
 *    acknowledgement committed before the claim always wins; steps become pages, and the pages due
 *    by now are leased to the claim (ESCALATION_CLAIM_LEASE_SECONDS); the claim commits;
 * 2. sends each leased page outside every transaction (email, or a signed webhook), a few at once,
 *    while the lease has room for it;
 * 3. records the outcomes (sent, retried after a backoff, failed at its last attempt) and their
 *    timeline entries in a second short transaction, where the lease still holds.
 * Steps and pages are rows with their due time, so they survive restarts: a step due while every
 * processor was down is taken once when one returns. An engine that stops between a send and its
 * record leaves the page to be sent again when its lease runs out, with the same idempotency key
 * and Message-ID.
 */
@Injectable()
export class EscalationEngine implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EscalationEngine');
  private readonly job?: RecurringJob;
  /** Names this engine's claims (claimed_by): the instance, then each claim's own id. */
  private readonly instance = `${hostname()}:${process.pid}`;

  constructor(
    private readonly database: AlertsDatabase,
    private readonly escalations: EscalationsRepository,
    private readonly access: AccessReader,
    private readonly senders: PageSenders,
    private readonly metrics: EscalationMetrics,
    @Inject(ESCALATION_OPTIONS) private readonly options: EscalationOptions,
  ) {
    if (!runsRole(options.roles, 'workflow')) return;
    const reclaimer = new ChurnedTablesReclaimer(database, ['alert_escalations', 'escalation_pages']);
    this.job = new RecurringJob(options.pollIntervalMs, this.logger, 'Escalating failed', async () => {
      const sent = await this.round(() => reclaimer.changed());
      await reclaimer.reclaimIfDue();
      return sent > 0 ? `Sent ${sent} ${sent === 1 ? 'page' : 'pages'}` : undefined;
    });
  }

  onApplicationBootstrap(): void {
    this.job?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job?.stop();
  }

  /** Claims, sends and records until nothing is due (or the round's claims are spent); resolves how many pages went out. */
  async round(onClaim: () => void = () => undefined): Promise<number> {
    let sent = 0;
    for (let claims = 0; claims < CLAIMS_PER_ROUND; claims++) {
      const claim = `${this.instance}:${randomUUID()}`;
      const claimed = await this.claim(claim);
      if (!claimed) return sent;
      onClaim();
      if (claimed.pageIds.length > 0) sent += await this.deliver(claim, claimed.pageIds, claimed.now);
    }
    return sent;
  }

  /** The claim (one command): its decisions commit before anything is sent. Null: nothing was due. */
  private async claim(claim: string): Promise<{ pageIds: string[]; now: number } | null> {
    const result = await runCommand(this.database, {
      read: async (transaction) => {
        const read = await this.escalations.claimRead(transaction, this.options.claimLimit);
        if (!read) return null;
        const members = await this.access.memberIdsByProject(read.projectIds);
        const paging = await this.escalations.claimPaging(transaction, [...members.values()].flatMap((ids) => [...ids]));
        return { ...read, members, paging };
      },
      plan: (state) => (state ? planEngineClaim(state, { clock: this.options.clock, emailConfigured: this.options.email !== undefined }) : unchanged()),
      write: async (transaction, changes: ClaimChanges | null, state) => {
        if (!state) return { answer: null };
        const pageIds = await this.escalations.writeClaim(transaction, claim, this.options.leaseMs, state.now, changes);
        return { answer: { pageIds, now: state.now, changes, cancelledMethods: state.pages.filter(({ page }) => changes?.cancelled.some((c) => c.id === page.id)).map(({ page }) => page.method) } };
      },
    });
    const answer = answered(result);
    if (!answer) return null;
    if (answer.changes) this.metrics.stepsTaken(answer.changes.steps, answer.now, this.options.lateMs);
    this.metrics.pagesCancelled(answer.cancelledMethods);
    return answer;
  }

  /** Sends the pages leased to `claim` and records what became of them. */
  private async deliver(claim: string, pageIds: readonly string[], claimedAt: number): Promise<number> {
    const read = await this.escalations.deliveries(pageIds);
    const paths = await this.access.projectPaths(read.map((delivery) => delivery.alert.projectId));
    const deliveries: PageDelivery[] = read.map((delivery) => ({ ...delivery, alert: { ...delivery.alert, projectPath: paths.get(delivery.alert.projectId) ?? `project ${delivery.alert.projectId}` } }));
    const leaseEnd = claimedAt + this.options.leaseMs;
    // A send starts only while the lease still has room for it; the rest is due again at once.
    const sendBy = leaseEnd - 2 * Math.max(this.options.webhook.timeoutMs, 4 * (this.options.email?.smtpTimeoutMs ?? 0));
    const updates: Array<PageUpdate & { method: PageDelivery['page']['method'] }> = [];
    for (let start = 0; start < deliveries.length; start += SEND_CONCURRENCY) {
      const batch = deliveries.slice(start, start + SEND_CONCURRENCY);
      const outcomes = await Promise.all(batch.map((delivery) => (start > 0 && Date.now() > sendBy ? undefined : this.senders.send(delivery))));
      for (const [index, delivery] of batch.entries()) {
        const outcome = outcomes[index];
        if (outcome && !outcome.ok) this.logger.warn(`Page ${delivery.page.id} to ${delivery.page.address} failed: ${outcome.error}`);
        updates.push({ ...pageUpdate(delivery.page, outcome, Date.now(), this.options.pageRetry), method: delivery.page.method });
      }
    }
    const entries = pageEntries(
      deliveries.map((delivery) => delivery.page),
      updates,
      Date.now(),
    );
    const written = await this.recordOutcome(claim, updates, entries, leaseEnd);
    const recorded = updates.filter((update) => written.has(update.id));
    this.metrics.pagesRecorded(recorded);
    return recorded.filter((update) => update.status === 'sent').length;
  }

  /** Records a claim's outcomes; while PostgreSQL does not answer, tries again (never sending again) until the lease ends. */
  private async recordOutcome(claim: string, updates: PageUpdate[], entries: ActivityEntryOut[], leaseEnd: number): Promise<Set<string>> {
    for (let waitMs = 200; ; waitMs = Math.min(5_000, waitMs * 2)) {
      try {
        return await this.escalations.recordOutcome(claim, updates, entries);
      } catch (error) {
        if (Date.now() + waitMs >= leaseEnd) throw error;
        this.logger.warn(`Recording the outcome of ${updates.length} pages failed (tried again in ${waitMs} ms): ${error instanceof Error ? error.message : String(error)}`);
        await sleep(waitMs);
      }
    }
  }
}
