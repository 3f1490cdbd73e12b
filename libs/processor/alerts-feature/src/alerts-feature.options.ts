import { OutboxRelaySettings } from '@alert-ingestion/outbox';
import { ProcessorRole } from './processor-roles';

/** Settings of the processor's feature providers, taken from AlertProcessorEnv by the app. */
export interface AlertsFeatureOptions {
  /** What this instance runs besides the API (PROCESSOR_ROLES). */
  roles: readonly ProcessorRole[];
  databaseUrl: string;
  databasePoolSize: number;
  integrationLookupTimeoutMs: number;
  processedRetention: {
    /** Idempotency records older than this are removed. */
    retentionMs: number;
    sweepIntervalMs: number;
  };
  relay: OutboxRelaySettings;
  /** The alert event outbox's shards (ShardedOutboxRelay): how many, and how often processors rebalance them. */
  relayShards: { count: number; rebalanceIntervalMs: number };
  heartbeat: {
    /** How often expired heartbeats are looked for. */
    checkIntervalMs: number;
    /** The unit of heartbeat intervals: a minute (60000); shorter only in tests. */
    minuteMs: number;
  };
  deliveries: {
    /** Deliveries kept per integration; 0 records none. */
    keepPerIntegration: number;
    retentionMs: number;
    sweepIntervalMs: number;
  };
}

export const ALERTS_FEATURE_OPTIONS = Symbol('ALERTS_FEATURE_OPTIONS');
