import { ActivityEntryOut, activityOrigin, ActivitySubject, heartbeatFingerprintSha256, StoredAlert } from '@alert-ingestion/alerts-domain';
import { ActivityActor, ActivityEntryView, ActivityKind, ActivitySource, AlertEvent } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';

// The activity timeline of alerts and incidents as it is read and noted on (docs/api-guide.md
// "Alert workflow"). The entries a change writes are decided by its plan (alerts-domain's activity.ts).

/** An entry as the timeline read gives it (ids as decimal strings). */
export interface StoredActivityEntry {
  id: string;
  kind: ActivityKind;
  actor_user_id: string | null;
  source: ActivitySource;
  reason: string | null;
  details: JsonObject;
  created_at: Date;
}

/** The users a page of entries names as actors, to look their usernames up in one query. */
export function activityActorIds(entries: readonly StoredActivityEntry[]): string[] {
  return [...new Set(entries.flatMap((entry) => (entry.actor_user_id === null ? [] : [entry.actor_user_id])))];
}

/**
 * An entry as the API answers it; `usernames` by user id (a user deleted since: username null).
 * An entry naming an integration (`integration_id`: the payload that created or resolved the alert)
 * also gets its current name as `integration_name` when `integrationName` knows it (a deleted
 * integration: none).
 */
export function activityEntryView(
  entry: StoredActivityEntry,
  usernames: ReadonlyMap<string, string>,
  integrationName: (id: string) => string | undefined = () => undefined,
): ActivityEntryView {
  const actor: ActivityActor =
    entry.actor_user_id === null ? { type: 'service' } : { type: 'user', id: Number(entry.actor_user_id), username: usernames.get(entry.actor_user_id) ?? null };
  const integrationId = entry.details['integration_id'];
  const name = integrationId === undefined || integrationId === null ? undefined : integrationName(String(integrationId));
  return {
    id: Number(entry.id),
    kind: entry.kind,
    created_at: entry.created_at.toISOString(),
    actor,
    source: entry.source,
    reason: entry.reason,
    details: name === undefined ? entry.details : { ...entry.details, integration_name: name },
  };
}

/** A note a member wrote on a timeline (its body Markdown, rendered by the reader, never as raw HTML). */
export function noteEntry(projectId: string, subject: ActivitySubject, body: string, by: AlertEvent.AlertEventCause, at: Date): ActivityEntryOut & { subject: ActivitySubject } {
  return { projectId, subject, kind: 'note', ...activityOrigin(by), reason: null, details: { body }, at };
}

/**
 * The entries of an alert's timeline that its row holds rather than a row each (so a grouped payload
 * writes nothing more than the events counter it always did): `alert_created`, by a payload of its
 * integration or by its missed heartbeat, and one `events_grouped` with the payloads grouped into it
 * since (`count`) and the first and latest of them, placed at the first.
 */
export function derivedAlertEntries(alert: StoredAlert): ActivityEntryOut[] {
  const subject = { alertId: alert.id };
  const heartbeat = alert.fingerprint_sha256 === heartbeatFingerprintSha256(alert.integration_id);
  const entries: ActivityEntryOut[] = [
    {
      projectId: alert.project_id,
      subject,
      kind: 'alert_created',
      source: heartbeat ? 'heartbeat' : 'payload',
      actorUserId: null,
      reason: null,
      details: { integration_id: Number(alert.integration_id) },
      at: alert.created_at,
    },
  ];
  if (alert.events > 1 && alert.first_grouped_at) {
    const last = alert.last_grouped_at ?? alert.first_grouped_at;
    entries.push({
      projectId: alert.project_id,
      subject,
      kind: 'events_grouped',
      source: heartbeat ? 'heartbeat' : 'payload',
      actorUserId: null,
      reason: null,
      details: { count: alert.events - 1, first_at: alert.first_grouped_at.toISOString(), last_at: last.toISOString() },
      at: alert.first_grouped_at,
    });
  }
  return entries;
}
