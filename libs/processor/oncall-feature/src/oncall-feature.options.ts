import { OutboxRelaySettings } from '@alert-ingestion/outbox';

/** Settings of on call's providers, taken from AlertProcessorEnv by the app. */
export interface OncallFeatureOptions {
  databaseUrl: string;
  /** Whether this instance publishes changes of who is on call and relays on-call events (the workflow role). */
  publishes: boolean;
  /** How often the handoff publisher looks for due schedules and members who left their project (ONCALL_HANDOFF_CHECK_MS). */
  handoffCheckIntervalMs: number;
  relay: OutboxRelaySettings;
  /** The console's public address (CONSOLE_URL): calendar URLs are given on it; none: only their path. */
  consoleUrl?: string;
}

export const ONCALL_FEATURE_OPTIONS = Symbol('ONCALL_FEATURE_OPTIONS');
