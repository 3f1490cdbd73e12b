import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ProcessedRawAlertsRetention } from '@alert-ingestion/alerts-data';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

/**
 * Sweeps idempotency records older than PROCESSED_REQUEST_RETENTION_HOURS, at start-up and then
 * every PROCESSED_REQUEST_SWEEP_MINUTES. Every instance sweeps (a deletion another instance already
 * made just finds nothing).
 */
@Injectable()
export class ProcessedRetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ProcessedRetentionService.name);
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly retention: ProcessedRawAlertsRetention,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.sweep();
    this.timer = setInterval(() => this.sweep(), this.options.processedRetention.sweepIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  private sweep(): void {
    if (this.sweeping) return;
    const cutoff = new Date(Date.now() - this.options.processedRetention.retentionMs);
    this.sweeping = this.retention
      .removeProcessedBefore(cutoff)
      .then((removed) => {
        if (removed > 0) this.logger.log(`Removed ${removed} idempotency records processed before ${cutoff.toISOString()}`);
      })
      .catch((error: unknown) => this.logger.warn(`Idempotency record sweep failed (tried again later): ${String(error)}`))
      .finally(() => {
        this.sweeping = undefined;
      });
  }
}
