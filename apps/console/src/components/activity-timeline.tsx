import { ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { TIMELINE_PER_PAGE, TimelineSubject, useAddTimelineNote, useTimeline } from '@console/api/activity';
import { useIntegrations } from '@console/api/queries';
import { ActivityEntry } from '@console/api/types';
import { exactTime } from '@console/lib/time';
import { STATUS_LABELS } from '@console/pages/alerts/alert-status-control';
import { incidentPath } from '@console/pages/incidents/incidents.page';
import { ErrorMessage } from './error-message';
import { MarkdownText } from './markdown';
import { NoteForm } from './note-form';
import { Pagination } from './pagination';
import { TimeAgo } from './time-ago';

type Person = { id: number; username: string };

function people(value: unknown): string {
  const list = Array.isArray(value) ? (value as Person[]) : [];
  return list.map((person) => `@${person.username}`).join(', ');
}

function statusLabel(value: unknown): string {
  return typeof value === 'string' && value in STATUS_LABELS ? STATUS_LABELS[value as keyof typeof STATUS_LABELS] : String(value);
}

/** An incident's edited fields in words: `the title from “A” to “B” and the owner from nobody to @sam`. */
function fieldChanges(value: unknown): string {
  const changes = Array.isArray(value) ? (value as Array<{ field: string; from: unknown; to: unknown }>) : [];
  const shown = (field: string, fieldValue: unknown) => {
    if (fieldValue === null || fieldValue === undefined || fieldValue === '') return field === 'owner' ? 'nobody' : 'nothing';
    if (field === 'owner') return `@${(fieldValue as Person).username}`;
    if (field === 'description') return 'a new text';
    return `“${String(fieldValue)}”`;
  };
  const words = changes.map(({ field, from, to }) => (field === 'description' ? 'the description' : `the ${field} from ${shown(field, from)} to ${shown(field, to)}`));
  return words.length === 0 ? 'the incident' : words.join(' and ');
}

/** Integration names by id, from the integration list developers may read too. */
type IntegrationNames = ReadonlyMap<number, string>;

/** The integration an entry names: "integration “Prometheus”" (the entry's name, else the project's list), or by id once it is deleted. */
function integrationOf(details: ActivityEntry['details'], names: IntegrationNames): string {
  const name = details['integration_name'] ?? names.get(Number(details['integration_id']));
  return typeof name === 'string' ? `integration “${name}”` : `integration ${String(details['integration_id'])}`;
}

/** Who did it, in words: the user, or what the service acted on. */
function actorOf(entry: ActivityEntry, names: IntegrationNames): string {
  if (entry.actor.type === 'user') return entry.actor.username ? `@${entry.actor.username}` : `User ${entry.actor.id}`;
  switch (entry.source) {
    case 'payload':
      return entry.details['integration_id'] === undefined ? 'A payload' : `A payload of ${integrationOf(entry.details, names)}`;
    case 'heartbeat':
      return 'The heartbeat check';
    case 'incident':
      return `Closing incident #${String(entry.details['incident_iid'] ?? '')}`.trim();
    case 'settings':
      return 'The alert settings';
    case 'escalation':
      return 'The escalation policy';
    case 'api':
      return 'The administrator';
    default:
      return 'The service';
  }
}

function alertLink(projectId: number, iid: unknown): ReactNode {
  return <Link to={`/projects/${projectId}/alerts/${String(iid)}`}>alert #{String(iid)}</Link>;
}

function incidentLink(projectId: number, iid: unknown): ReactNode {
  return <Link to={incidentPath(projectId, Number(iid))}>incident #{String(iid)}</Link>;
}

/** What an entry says, for each kind a timeline holds, as seen from the alert or the incident whose timeline it is. */
export function activityText(entry: ActivityEntry, subject: TimelineSubject, names: IntegrationNames = new Map()): ReactNode {
  const details = entry.details;
  const actor = actorOf(entry, names);
  const { projectId } = subject;
  switch (entry.kind) {
    case 'alert_created':
      return entry.source === 'heartbeat' ? 'Created: the integration sent nothing for its heartbeat interval.' : `Created by a payload of ${integrationOf(details, names)}.`;
    case 'events_grouped':
      return `${String(details['count'])} more ${details['count'] === 1 ? 'event' : 'events'} grouped into this alert, the latest ${exactTime(String(details['last_at']))}.`;
    case 'status_changed':
      return `${actor} changed the status from ${statusLabel(details['from'])} to ${statusLabel(details['to'])}.`;
    case 'assignees_changed': {
      const added = people(details['added']);
      const removed = people(details['removed']);
      return `${actor} ${[added && `assigned ${added}`, removed && `unassigned ${removed}`].filter(Boolean).join(' and ')}.`;
    }
    case 'incident_linked':
      return subject.type === 'alert' ? (
        <>
          {actor} linked this alert to {incidentLink(projectId, details['incident_iid'])}.
        </>
      ) : (
        <>
          {actor} linked {alertLink(projectId, details['alert_iid'])}.
        </>
      );
    case 'incident_created':
      return details['alert_iid'] === undefined ? (
        `${actor} opened the incident.`
      ) : (
        <>
          {actor} opened the incident from {alertLink(projectId, details['alert_iid'])}.
        </>
      );
    case 'incident_closed': {
      const resolved = Array.isArray(details['resolved_alert_iids']) ? (details['resolved_alert_iids'] as number[]) : [];
      if (resolved.length === 0) return `${actor} closed the incident.`;
      return (
        <>
          {actor} closed the incident, resolving{' '}
          {resolved.map((iid, index) => (
            <span key={iid}>
              {index > 0 && ', '}
              {alertLink(projectId, iid)}
            </span>
          ))}
          .
        </>
      );
    }
    case 'incident_reopened':
      return `${actor} reopened the incident.`;
    case 'incident_updated':
      return `${actor} changed ${fieldChanges(details['changes'])}.`;
    case 'incident_kept_open':
    case 'incident_skipped':
      return entry.reason ?? (entry.kind === 'incident_skipped' ? 'No incident was opened for this alert.' : 'The incident stays open.');
    case 'notification_sent':
      return `Email sent to ${String(details['recipient'] ?? 'a recipient')}.`;
    case 'notification_failed':
      return `Email to ${String(details['recipient'] ?? 'a recipient')} failed${entry.reason ? `: ${entry.reason}` : ''}.`;
    case 'notification_suppressed':
      return `Email to ${String(details['recipient'] ?? 'a recipient')} suppressed${entry.reason ? `: ${entry.reason}` : ''}.`;
    case 'notification_cancelled':
      return `Email to ${String(details['recipient'] ?? 'a recipient')} cancelled${entry.reason ? `: ${entry.reason}` : ''}`;
    case 'notification_skipped':
      return entry.reason ?? 'Nobody was emailed about this change.';
    // The escalation policy's entries say what happened in their reason (who was paged and how, whom a rule could not reach, why it stopped).
    case 'escalation_started':
    case 'escalation_stopped':
    case 'escalation_skipped':
      return `Escalation: ${entry.reason ?? entry.kind.replace('escalation_', '')}`;
    case 'page_sent':
    case 'page_failed':
    case 'page_skipped':
      return entry.reason ?? `Page ${entry.kind.replace('page_', '')}.`;
    case 'note':
      return (
        <>
          <span className="note-author">{actor} wrote:</span>
          {/* Markdown as text and elements only: raw HTML in a note is shown as text, never rendered. */}
          <div className="note-body markdown">
            <MarkdownText text={String(details['body'] ?? '')} />
          </div>
        </>
      );
  }
}

interface ActivityTimelineProps {
  subject: TimelineSubject;
  /** The caller may write notes (developer+): the note form is shown under the timeline. */
  canWrite: boolean;
}

/** The card with the timeline of an alert or an incident, oldest first (newest last), paged, with the note form under it. */
export function ActivityTimeline({ subject, canWrite }: ActivityTimelineProps) {
  const [page, setPage] = useState(1);
  const activity = useTimeline(subject, page);
  const addNote = useAddTimelineNote(subject);
  // An entry without the integration's name (the processor did not know it yet) is named from the
  // project's integration list, which developers read too: never just "integration 557".
  const unnamed = activity.data?.items.some((entry) => entry.details['integration_id'] !== undefined && typeof entry.details['integration_name'] !== 'string') ?? false;
  const integrations = useIntegrations(subject.projectId, unnamed);
  const names = useMemo<IntegrationNames>(() => new Map((integrations.data ?? []).map((integration) => [integration.id, integration.name])), [integrations.data]);
  return (
    <div className="card activity">
      <h2>Activity</h2>
      <ErrorMessage error={activity.error} title="Activity" />
      {activity.isPending && <p className="muted">Loading the activity…</p>}
      {activity.data && (
        <ol className="timeline" aria-label={`Activity of ${subject.type} #${subject.iid}`}>
          {activity.data.items.map((entry) => (
            <li key={`${entry.kind}-${entry.id}-${entry.created_at}`} className={`timeline-entry timeline-${entry.kind}`}>
              <div className="timeline-text">{activityText(entry, subject, names)}</div>
              <time className="muted" dateTime={entry.created_at} title={exactTime(entry.created_at)}>
                <TimeAgo iso={entry.created_at} />
              </time>
            </li>
          ))}
        </ol>
      )}
      {activity.data && <Pagination page={page} total={activity.data.total} perPage={TIMELINE_PER_PAGE[subject.type]} onPage={setPage} />}
      {canWrite && <NoteForm add={addNote} />}
    </div>
  );
}
