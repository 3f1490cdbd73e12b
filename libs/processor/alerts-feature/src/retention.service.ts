import { DeliveriesRepository, ProcessedRawAlertsRetention } from '@alert-ingestion/alerts-data';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { RecurringJob } from './recurring-job';

/**
 * Removes what the processor keeps only for a while, at start-up and then on a timer: idempotency
 * records older than PROCESSED_REQUEST_RETENTION_HOURS (every PROCESSED_REQUEST_SWEEP_MINUTES), and
 * deliveries older than DELIVERIES_RETENTION_HOURS or beyond DELIVERIES_KEEP_PER_INTEGRATION per
 * integration (every DELIVERIES_SWEEP_MINUTES). Every instance sweeps (a deletion another instance
 * already made just finds nothing).
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly sweeps: RecurringJob[];

  constructor(processed: ProcessedRawAlertsRetention, deliveries: DeliveriesRepository, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions) {
    const logger = new Logger(RetentionService.name);
    /** One kind of row swept on a timer; `remove` resolves with how many rows went. */
    const sweep = (name: string, intervalMs: number, remove: (now: Date) => Promise<number>) =>
      new RecurringJob(intervalMs, logger, `Sweeping ${name} failed`, async () => {
        const removed = await remove(new Date());
        return removed > 0 ? `Removed ${removed} ${name}` : undefined;
      });
    this.sweeps = [
      sweep('idempotency records', options.processedRetention.sweepIntervalMs, (now) =>
        processed.removeProcessedBefore(new Date(now.getTime() - options.processedRetention.retentionMs)),
      ),
      sweep('deliveries', options.deliveries.sweepIntervalMs, (now) => deliveries.prune(now, options.deliveries.retentionMs, options.deliveries.keepPerIntegration)),
    ];
  }

  onApplicationBootstrap(): void {
    for (const sweep of this.sweeps) {
      sweep.run();
      sweep.start();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.sweeps.map((sweep) => sweep.stop()));
  }
}
