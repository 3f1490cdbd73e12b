import { ProcessorRole } from '@alert-ingestion/alerts-feature';
import { EmailPolicy } from '@alert-ingestion/workflow-domain';

/** Settings of the alert workflow's providers, taken from AlertProcessorEnv by the app. */
export interface WorkflowOptions {
  /** What this instance runs besides the API (PROCESSOR_ROLES): the consumers and the mailer run in instances of the workflow role. */
  roles: readonly ProcessorRole[];
  /** Alert emails; undefined without SMTP_URL (nothing is recorded or sent, and the alert settings say email_configured: false). */
  email?: AlertEmailOptions;
}

/** How alert emails are sent (the EMAIL_* settings and SMTP_URL). */
export interface AlertEmailOptions {
  smtpUrl: string;
  /** The sender (EMAIL_FROM); its domain names the messages' Message-IDs. */
  from: string;
  /** The console's address, for the link to the alert in a message (CONSOLE_URL); none: no link. */
  consoleUrl?: string;
  policy: EmailPolicy;
  /** How often the mailer looks for due notifications. */
  pollIntervalMs: number;
  smtpTimeoutMs: number;
  /**
   * How long a claim of due notifications is the mailer's alone (EMAIL_CLAIM_LEASE_SECONDS): a
   * mailer that stops mid-send leaves them to be sent again this long after it claimed them.
   */
  claimLeaseMs: number;
  /** Events older than this mail nobody (a consumer catching up on old events sends no stale news). */
  eventMaxAgeMs: number;
}

export const WORKFLOW_OPTIONS = Symbol('WORKFLOW_OPTIONS');
