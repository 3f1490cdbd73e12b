import { counter } from '@alert-ingestion/metrics';
import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** A committed change of an alert integration, as integration_config_integration_changes_total counts it. */
export type IntegrationChange = 'created' | 'updated' | 'deleted' | 'key_reset';

const INTEGRATION_CHANGES: readonly IntegrationChange[] = ['created', 'updated', 'deleted', 'key_reset'];

/** integration-config's own metric (docs/operating.md "Metrics"); the snapshot relay's are the outbox's. */
@Injectable()
export class IntegrationMetrics {
  private readonly changes: Counter<'change'>;

  constructor(registry: Registry) {
    this.changes = counter(registry, 'integration_config_integration_changes_total');
    for (const change of INTEGRATION_CHANGES) this.changes.inc({ change }, 0);
  }

  changed(change: IntegrationChange): void {
    this.changes.inc({ change });
  }
}
