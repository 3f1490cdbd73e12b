import { AlertBatchRepository, HeartbeatsRepository, HeartbeatWatch } from '@alert-ingestion/alerts-data';
import { ExpiredHeartbeat, planHeartbeatAlerts, raisedHeartbeat, stateKeys } from '@alert-ingestion/alerts-domain';
import { IntegrationSnapshot } from '@alert-ingestion/contracts';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { IntegrationRegistryService } from './integration-registry.service';
import { RecurringJob } from './recurring-job';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

/** Heartbeats raised per transaction: bounds one transaction's locks when many expire at once. */
const RAISED_PER_TRANSACTION = 100;

/**
 * The heartbeat checker: every HEARTBEAT_CHECK_INTERVAL_MS, the integrations whose heartbeat is on
 * (active HTTP Endpoints with heartbeat_interval_minutes, from the integrations view) and whose last
 * request is older than the interval get their heartbeat alert, raised through the alert batch plan
 * (planHeartbeatAlerts) in a transaction of the alert batch repository, so its `alert.created`
 * event goes out through the outbox like any other.
 *
 * Every instance checks; PostgreSQL makes one of them raise each alert: the transaction claims the
 * heartbeat row FOR UPDATE SKIP LOCKED, only while it is still silent since the same last request
 * and not yet marked expired for it, and marks it in the same commit. An instance that dies before
 * committing leaves the row as it was, and the next check (of any instance) raises it. The request
 * id of the alert is fixed per silence, so even a second raise would be a redelivery.
 */
@Injectable()
export class HeartbeatCheckerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: RecurringJob;

  constructor(
    private readonly repository: AlertBatchRepository,
    private readonly heartbeats: HeartbeatsRepository,
    private readonly integrations: IntegrationRegistryService,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
  ) {
    this.job = new RecurringJob(options.heartbeat.checkIntervalMs, new Logger(HeartbeatCheckerService.name), 'Checking heartbeats failed', async () => {
      const raised = await this.check();
      return raised > 0 ? `Raised ${raised} heartbeat ${raised === 1 ? 'alert' : 'alerts'}` : undefined;
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** Raises the alerts of the heartbeats expired at `now`; resolves how many this instance raised. */
  async check(now = new Date()): Promise<number> {
    const { minuteMs } = this.options.heartbeat;
    const watched = new Map<string, Snapshot>();
    for (const integration of this.integrations.all()) {
      if (integration.type === 'http' && integration.active && integration.heartbeat_interval_minutes !== undefined) watched.set(integration.id, integration);
    }
    const watches: HeartbeatWatch[] = [...watched.values()].map((integration) => ({
      integrationId: integration.id,
      dueBefore: new Date(now.getTime() - (integration.heartbeat_interval_minutes as number) * minuteMs),
    }));
    const silent = await this.heartbeats.findSilent(watches);
    let raised = 0;
    for (let start = 0; start < silent.length; start += RAISED_PER_TRANSACTION) {
      const chunk = silent.slice(start, start + RAISED_PER_TRANSACTION).map(({ integrationId, lastRequestAt }): ExpiredHeartbeat => {
        const integration = watched.get(integrationId) as Snapshot;
        return {
          integrationId,
          projectId: integration.project_id,
          projectTier: integration.project_tier,
          integrationName: integration.name,
          intervalMinutes: integration.heartbeat_interval_minutes as number,
          lastRequestAt,
        };
      });
      const raising = chunk.map((expired) => raisedHeartbeat(expired, minuteMs));
      raised += await this.repository.transaction(async (transaction) => {
        const state = await transaction.readState(stateKeys(raising.map(({ intake }) => intake)));
        const claimed = await transaction.claimHeartbeats(chunk);
        const plan = planHeartbeatAlerts(raising.filter(({ expired }) => claimed.has(expired.integrationId)), state, now);
        await transaction.write(plan.writes, now);
        return plan.writes.alertInserts.length;
      });
    }
    return raised;
  }
}
