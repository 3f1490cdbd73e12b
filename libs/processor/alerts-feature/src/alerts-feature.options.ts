import { OutboxRelaySettings } from '@alert-ingestion/outbox';

/** Settings of the processor's feature providers, taken from AlertProcessorEnv by the app. */
export interface AlertsFeatureOptions {
  databaseUrl: string;
  databasePoolSize: number;
  topicPrefix: string;
  integrationLookupTimeoutMs: number;
  processedRetention: {
    /** Idempotency records older than this are removed. */
    retentionMs: number;
    sweepIntervalMs: number;
  };
  relay: OutboxRelaySettings;
  deliveries: {
    /** Deliveries kept per integration; 0 records none. */
    keepPerIntegration: number;
    retentionMs: number;
    sweepIntervalMs: number;
  };
}

export const ALERTS_FEATURE_OPTIONS = Symbol('ALERTS_FEATURE_OPTIONS');
