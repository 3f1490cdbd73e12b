import { DeliveriesRepository, ProcessedRawAlertsRetention } from '@alert-ingestion/alerts-data';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

/** One kind of row swept on a timer. */
interface Sweep {
  name: string;
  intervalMs: number;
  /** Removes what is due; resolves with how many rows went. */
  run(now: Date): Promise<number>;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/**
 * Removes what the processor keeps only for a while, at start-up and then on a timer: idempotency
 * records older than PROCESSED_REQUEST_RETENTION_HOURS (every PROCESSED_REQUEST_SWEEP_MINUTES), and
 * deliveries older than DELIVERIES_RETENTION_HOURS or beyond DELIVERIES_KEEP_PER_INTEGRATION per
 * integration (every DELIVERIES_SWEEP_MINUTES). Every instance sweeps (a deletion another instance
 * already made just finds nothing).
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionService.name);
  private readonly sweeps: Sweep[];

  constructor(processed: ProcessedRawAlertsRetention, deliveries: DeliveriesRepository, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions) {
    this.sweeps = [
      {
        name: 'idempotency records',
        intervalMs: options.processedRetention.sweepIntervalMs,
        run: (now) => processed.removeProcessedBefore(new Date(now.getTime() - options.processedRetention.retentionMs)),
      },
      {
        name: 'deliveries',
        intervalMs: options.deliveries.sweepIntervalMs,
        run: (now) => deliveries.prune(now, options.deliveries.retentionMs, options.deliveries.keepPerIntegration),
      },
    ];
  }

  onApplicationBootstrap(): void {
    for (const sweep of this.sweeps) {
      this.sweep(sweep);
      sweep.timer = setInterval(() => this.sweep(sweep), sweep.intervalMs);
      sweep.timer.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    for (const sweep of this.sweeps) clearInterval(sweep.timer);
    await Promise.all(this.sweeps.map((sweep) => sweep.running));
  }

  private sweep(sweep: Sweep): void {
    if (sweep.running) return;
    sweep.running = sweep
      .run(new Date())
      .then((removed) => {
        if (removed > 0) this.logger.log(`Removed ${removed} ${sweep.name}`);
      })
      .catch((error: unknown) => this.logger.warn(`Sweeping ${sweep.name} failed (tried again later): ${String(error)}`))
      .finally(() => {
        sweep.running = undefined;
      });
  }
}
