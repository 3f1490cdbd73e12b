import { Severity } from '@alert-ingestion/contracts';
import { canonicalJson, JsonValue, isJsonObject, JsonObject } from '@alert-ingestion/json';
import { AlertSource } from './alert-source';
import { parseAlertTime } from './alert-time';
import { normaliseSeverity } from './severity';
import { MAX_HOSTS, TEXT_LIMITS, truncateText } from './text';

/** Spec 2.2: the title of an alert whose payload has none. */
export const DEFAULT_TITLE = 'New: Alert';

/** An alert payload with the rules of spec 2.2 applied: what an alert stores. */
export interface NormalisedAlert {
  title: string;
  description: string | null;
  severity: Severity;
  startedAt: Date;
  /** Set for a recovery alert (spec 1.5, 3): the payload resolves the matching alert. */
  endedAt: Date | null;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  platformEnvironmentName: string | null;
  /** The payload's own fingerprint as text (arrays and objects as canonical JSON), or null. */
  fingerprint: string | null;
  payload: JsonObject;
}

/** Text of a scalar; objects, arrays, null and blank text count as "no value" (spec 2.2 defaults). */
function scalarText(value: JsonValue | undefined): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function limitedText(value: JsonValue | undefined, limit: number): string | null {
  const text = scalarText(value);
  return text === null ? null : truncateText(text, limit);
}

/** Spec 2.2: hosts is a string or an array of strings; numbers are kept as text, other items dropped. */
function normaliseHosts(value: JsonValue | undefined): string[] {
  const items = Array.isArray(value) ? value : [value];
  const hosts: string[] = [];
  for (const item of items) {
    const host = limitedText(item, TEXT_LIMITS.host);
    if (host !== null && hosts.length < MAX_HOSTS) hosts.push(host);
  }
  return hosts;
}

/** Whether a payload carries a fingerprint of its own: a non-blank scalar or a non-empty array/object. */
export function hasExplicitFingerprint(value: JsonValue | undefined): value is JsonValue {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isJsonObject(value)) return Object.keys(value).length > 0;
  return scalarText(value) !== null;
}

function fingerprintText(value: JsonValue | undefined): string | null {
  if (!hasExplicitFingerprint(value)) return null;
  const text = typeof value === 'object' ? canonicalJson(value) : (scalarText(value) as string);
  return truncateText(text, TEXT_LIMITS.fingerprint);
}

/**
 * Applies spec 2.2 to one alert payload. `now` is the time the request was received, so that
 * processing a redelivered message again gives exactly the same alert.
 * - title: "New: Alert" when absent or blank; description, service, monitoring tool and platform
 *   environment: null when absent; text is cut to TEXT_LIMITS code points;
 * - start time: `now` when absent or invalid; end time: null when absent or invalid (an unreadable
 *   end time must not resolve anything);
 * - severity case-insensitive among the allowed values, else critical;
 * - hosts and fingerprint: a string or an array (see normaliseHosts, fingerprintText).
 */
export function normaliseAlert(source: AlertSource, now: Date): NormalisedAlert {
  const { fields } = source;
  return {
    title: limitedText(fields.title, TEXT_LIMITS.title) ?? DEFAULT_TITLE,
    description: limitedText(fields.description, TEXT_LIMITS.description),
    severity: normaliseSeverity(fields.severity),
    startedAt: parseAlertTime(fields.start_time) ?? new Date(now.getTime()),
    endedAt: parseAlertTime(fields.end_time),
    service: limitedText(fields.service, TEXT_LIMITS.service),
    monitoringTool: limitedText(fields.monitoring_tool, TEXT_LIMITS.monitoring_tool),
    hosts: normaliseHosts(fields.hosts),
    platformEnvironmentName: limitedText(fields.platform_environment_name, TEXT_LIMITS.platform_environment_name),
    fingerprint: fingerprintText(fields.fingerprint),
    payload: source.payload,
  };
}
