import { HeartbeatStatus, ProjectTier } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';
import { v5 as uuidv5 } from 'uuid';
import { explicitFingerprintSha256 } from './fingerprint';

/**
 * Heartbeats (a dead man's switch, as Alertmanager's Watchdog and Grafana OnCall heartbeats use
 * them): an integration may expect a request at least every `heartbeat_interval_minutes`. When none
 * comes in time, an alert is raised through the ordinary alert pipeline, and the next request
 * resolves it. These are the rules, pure; the processor's checker and batches apply them.
 */

/** A minute, in milliseconds: the interval's unit (tests shorten it, see HEARTBEAT_MINUTE_MS). */
export const MINUTE_MS = 60_000;

/** The monitoring tool a heartbeat alert names. */
export const HEARTBEAT_MONITORING_TOOL = 'heartbeat';

/** What the heartbeat rules need to know of an integration. */
export interface HeartbeatSetting {
  /** null: no heartbeat expected. */
  intervalMinutes: number | null;
  /** An inactive integration's URL answers 404, so it cannot be expected to receive anything. */
  active: boolean;
}

/** When a heartbeat whose last request came at `lastRequestAt` expires: a request at that instant is still on time. */
export function heartbeatDeadline(lastRequestAt: Date, intervalMinutes: number, minuteMs = MINUTE_MS): Date {
  return new Date(lastRequestAt.getTime() + intervalMinutes * minuteMs);
}

/**
 * The heartbeat status of an integration at `now`: `off` without an interval (or while the
 * integration is inactive), `waiting` before its first request, `expired` once more than the
 * interval has passed since the last request, else `ok`.
 */
export function heartbeatStatus(setting: HeartbeatSetting, lastRequestAt: Date | null, now: Date, minuteMs = MINUTE_MS): HeartbeatStatus {
  if (setting.intervalMinutes === null || !setting.active) return 'off';
  if (lastRequestAt === null) return 'waiting';
  return now.getTime() > heartbeatDeadline(lastRequestAt, setting.intervalMinutes, minuteMs).getTime() ? 'expired' : 'ok';
}

/** The fixed fingerprint of an integration's heartbeat alert: one open heartbeat alert per integration. */
export function heartbeatFingerprint(integrationId: string): string {
  return `heartbeat:${integrationId}`;
}

/** What grouping compares for the heartbeat alert of an integration (an explicit fingerprint, on every tier). */
export function heartbeatFingerprintSha256(integrationId: string): string {
  return explicitFingerprintSha256(heartbeatFingerprint(integrationId));
}

/** An integration whose heartbeat expired, with what its alert says. */
export interface ExpiredHeartbeat {
  integrationId: string;
  projectId: string;
  projectTier: ProjectTier;
  integrationName: string;
  intervalMinutes: number;
  /** The last request before the silence: the alert is raised once per silence after it. */
  lastRequestAt: Date;
}

export function heartbeatAlertTitle(integrationName: string, intervalMinutes: number): string {
  return `No alerts received from ${integrationName} for ${intervalMinutes} ${intervalMinutes === 1 ? 'minute' : 'minutes'}`;
}

/**
 * The alert payload a heartbeat raises, as a monitoring tool would send it: critical, the
 * integration's name as service, started when the heartbeat expired, with the fixed fingerprint.
 */
export function heartbeatAlertPayload(expired: ExpiredHeartbeat, minuteMs = MINUTE_MS): JsonObject {
  const deadline = heartbeatDeadline(expired.lastRequestAt, expired.intervalMinutes, minuteMs);
  return {
    title: heartbeatAlertTitle(expired.integrationName, expired.intervalMinutes),
    description: `The integration expects a request at least every ${expired.intervalMinutes} ${expired.intervalMinutes === 1 ? 'minute' : 'minutes'}; the last one came at ${expired.lastRequestAt.toISOString()}.`,
    severity: 'critical',
    start_time: deadline.toISOString(),
    service: expired.integrationName,
    monitoring_tool: HEARTBEAT_MONITORING_TOOL,
    fingerprint: heartbeatFingerprint(expired.integrationId),
    heartbeat_interval_minutes: expired.intervalMinutes,
    last_request_at: expired.lastRequestAt.toISOString(),
  };
}

/** The namespace of heartbeat request ids (a fixed, random UUID). */
const HEARTBEAT_NAMESPACE = 'b3e0c9d4-6f1a-4c2e-9a57-0d8e1f2a3b4c';

/**
 * The request id a heartbeat alert is stored under: the same for one silence (integration and last
 * request) on every processor instance, so raising it twice is a redelivery that changes nothing.
 */
export function heartbeatRequestId(integrationId: string, lastRequestAt: Date): string {
  return uuidv5(`${integrationId}\n${lastRequestAt.toISOString()}`, HEARTBEAT_NAMESPACE);
}
