import { ProcessorRole } from '@alert-ingestion/alerts-feature';
import { EscalationClock, PageRetryPolicy } from '@alert-ingestion/escalation-domain';

/** Settings of the escalation rooms' providers, taken from AlertProcessorEnv by the app (the ESCALATION_* settings). */
export interface EscalationOptions {
  /** The consumer and the engine run in instances of the workflow role (PROCESSOR_ROLES); the API in every instance. */
  roles: readonly ProcessorRole[];
  /** How long a policy's minute is (ESCALATION_MINUTE_MS: a minute, shortened by tests only). */
  clock: EscalationClock;
  /** How often the engine looks for due steps and pages. */
  pollIntervalMs: number;
  /** How long a claim of pages is its engine's alone: an engine that stops mid-send leaves them to be sent again (same idempotency key) once it runs out. */
  leaseMs: number;
  /** Runs and pages taken per claim. */
  claimLimit: number;
  /** A step taken this long after it was due counts as late (alert_processor_escalation_steps_total{outcome="late"}). */
  lateMs: number;
  pageRetry: PageRetryPolicy;
  webhook: { timeoutMs: number; allowInternal: boolean };
  /** Email pages through the workflow's SMTP settings; undefined without SMTP_URL (email contact methods then reach nobody). */
  email?: { smtpUrl: string; from: string; smtpTimeoutMs: number };
  /** The console's address (CONSOLE_URL), for links in pages. */
  consoleUrl?: string;
}

export const ESCALATION_OPTIONS = Symbol('ESCALATION_OPTIONS');
