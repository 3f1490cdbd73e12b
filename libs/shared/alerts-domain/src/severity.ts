import { Severity, SEVERITIES } from '@alert-ingestion/contracts';
import { JsonValue } from '@alert-ingestion/json';

/** Spec 2.2: the severity when a payload has none or one outside the allowed list. */
export const DEFAULT_SEVERITY: Severity = 'critical';

/** Spec 2.2: case-insensitive among critical, high, medium, low, info, unknown; anything else is critical. */
export function normaliseSeverity(value: JsonValue | undefined): Severity {
  if (typeof value !== 'string') return DEFAULT_SEVERITY;
  const candidate = value.trim().toLowerCase();
  return (SEVERITIES as readonly string[]).includes(candidate) ? (candidate as Severity) : DEFAULT_SEVERITY;
}

/**
 * The words Prometheus rules commonly put in `labels.severity`, mapped to the platform's severities
 * (warning to medium, error to high, and so on). Syslog levels, PagerDuty-style P1..P5 and
 * SEV1..SEV4 are covered; `page` means someone must be woken up, so it is critical. A word outside
 * this table falls back to the spec 2.2 rule (an allowed severity, else critical).
 */
export const ALERTMANAGER_SEVERITY_WORDS: ReadonlyMap<string, Severity> = new Map<string, Severity>(
  Object.entries({
  page: 'critical',
  fatal: 'critical',
  emergency: 'critical',
  emerg: 'critical',
  alert: 'critical',
  crit: 'critical',
  p1: 'critical',
  sev1: 'critical',
  error: 'high',
  err: 'high',
  major: 'high',
  p2: 'high',
  sev2: 'high',
  warning: 'medium',
  warn: 'medium',
  minor: 'medium',
  p3: 'medium',
  sev3: 'medium',
  notice: 'low',
  p4: 'low',
  sev4: 'low',
  informational: 'info',
  information: 'info',
  debug: 'info',
  none: 'info',
    p5: 'info',
  } satisfies Record<string, Severity>),
);

export function alertmanagerSeverity(value: JsonValue | undefined): Severity {
  if (typeof value === 'string') {
    const word = ALERTMANAGER_SEVERITY_WORDS.get(value.trim().toLowerCase());
    if (word) return word;
  }
  return normaliseSeverity(value);
}
