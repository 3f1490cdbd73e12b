import { HealthDetails, HealthProbe } from '@alert-ingestion/http';
import { relayHealth } from '@alert-ingestion/outbox';
import { Injectable } from '@nestjs/common';
import { IntegrationSnapshotRelay } from './integrations/integration-snapshot-relay';

/**
 * `/healthz`: the integration snapshot relay keeps up (see relayHealth). integration-config's own
 * probe; PostgreSQL and Kafka are the shared DatabaseHealthProbe and KafkaHealthProbe.
 */
@Injectable()
export class IntegrationSnapshotRelayHealthProbe implements HealthProbe {
  readonly name = 'integration_snapshot_relay';

  constructor(private readonly snapshots: IntegrationSnapshotRelay) {}

  async ping(): Promise<HealthDetails> {
    return relayHealth(this.snapshots.relay.status());
  }
}
