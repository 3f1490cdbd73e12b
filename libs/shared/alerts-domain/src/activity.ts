import { ActivityActor, ActivityEntryView, ActivityKind, ActivitySource, AlertEvent, AlertStatus } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';
import { heartbeatFingerprintSha256 } from './heartbeat';
import { StoredAlert, StoredAssignee } from './stored-alert';

/** Whose timeline an entry is on: an alert's or an incident's (database ids as decimal strings). */
export type ActivitySubject = { alertId: string } | { incidentId: string };

/**
 * One entry to append to a timeline (activity_entries), decided by a plan and written by the data
 * layer in the transaction of the change it records. It is on the timeline of an alert or of an
 * incident (database ids as decimal strings); an entry about both (an alert linked to an incident)
 * is written once on each.
 */
export interface ActivityEntryOut {
  projectId: string;
  /**
   * The timeline it is on; `{alertIid}`: the alert of that iid in `projectId`, for an alert the same
   * transaction may have just created (a batch that creates and resolves it), whose id no plan knows.
   */
  subject: ActivitySubject | { alertIid: number };
  kind: ActivityKind;
  /** The user who did it; null: the service (a payload, a heartbeat, a setting) or the administrator token. */
  actorUserId: string | null;
  source: ActivitySource;
  reason: string | null;
  details: JsonObject;
  at: Date;
}

/** The timeline's source and actor of a change an alert event reports, from its cause. */
export function activityOrigin(cause: AlertEvent.AlertEventCause): Pick<ActivityEntryOut, 'source' | 'actorUserId'> {
  switch (cause.type) {
    case 'user':
      return { source: 'api', actorUserId: cause.user_id == null ? null : String(cause.user_id) };
    case 'payload':
      return { source: 'payload', actorUserId: null };
    case 'heartbeat':
      return { source: 'heartbeat', actorUserId: null };
    case 'incident':
      return { source: 'incident', actorUserId: null };
  }
}

/**
 * The `status_changed` entry of an alert whose status went from `from` to `to`, made by `cause`: on
 * the alert of that id, or, for an alert not stored yet (no id), of that iid.
 */
export function statusChangeEntry(
  alert: { id: string; project_id: string } | { iid: number; project_id: string },
  from: AlertStatus,
  to: AlertStatus,
  cause: AlertEvent.AlertEventCause,
  at: Date,
  reason: string | null = null,
): ActivityEntryOut {
  const details: JsonObject = { from, to };
  if (cause.type === 'payload' && cause.integration_id !== undefined) details['integration_id'] = cause.integration_id;
  if (cause.type === 'incident' && cause.incident_iid !== undefined) details['incident_iid'] = cause.incident_iid;
  const subject = 'id' in alert ? { alertId: alert.id } : { alertIid: alert.iid };
  return { projectId: alert.project_id, subject, kind: 'status_changed', ...activityOrigin(cause), reason, details, at };
}

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

/** The `assignees_changed` entry of an alert whose assignees went from `before` to `after`: who was added and removed. */
export function assigneesChangeEntry(
  alert: { id: string; project_id: string },
  before: readonly StoredAssignee[],
  after: readonly StoredAssignee[],
  cause: AlertEvent.AlertEventCause,
  at: Date,
): ActivityEntryOut {
  const view = ({ id, username }: StoredAssignee) => ({ id: Number(id), username });
  const details: JsonObject = {
    added: after.filter((assignee) => !before.some((other) => other.id === assignee.id)).map(view),
    removed: before.filter((assignee) => !after.some((other) => other.id === assignee.id)).map(view),
  };
  return { projectId: alert.project_id, subject: { alertId: alert.id }, kind: 'assignees_changed', ...activityOrigin(cause), reason: null, details, at };
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
