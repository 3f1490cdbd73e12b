import { ReactNode, useState } from 'react';
import { ACTIVITY_PER_PAGE, useAddAlertNote, useAlertActivity } from '../../api/alert-workflow';
import { ActivityEntry } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { MarkdownText } from '../../components/markdown';
import { NoteForm } from '../../components/note-form';
import { Pagination } from '../../components/pagination';
import { TimeAgo } from '../../components/time-ago';
import { exactTime } from '../../lib/time';
import { STATUS_LABELS } from './alert-status-control';

type Person = { id: number; username: string };

function people(value: unknown): string {
  const list = Array.isArray(value) ? (value as Person[]) : [];
  return list.map((person) => `@${person.username}`).join(', ');
}

function statusLabel(value: unknown): string {
  return typeof value === 'string' && value in STATUS_LABELS ? STATUS_LABELS[value as keyof typeof STATUS_LABELS] : String(value);
}

/** The integration an entry names: "integration “Prometheus”", or by id once it is deleted. */
function integrationOf(details: ActivityEntry['details']): string {
  const name = details['integration_name'];
  return typeof name === 'string' ? `integration “${name}”` : `integration ${String(details['integration_id'])}`;
}

/** Who did it, in words: the user, or what the service acted on. */
function actorOf(entry: ActivityEntry): string {
  if (entry.actor.type === 'user') return entry.actor.username ? `@${entry.actor.username}` : `User ${entry.actor.id}`;
  switch (entry.source) {
    case 'payload':
      return entry.details['integration_id'] === undefined ? 'A payload' : `A payload of ${integrationOf(entry.details)}`;
    case 'heartbeat':
      return 'The heartbeat check';
    case 'incident':
      return `Closing incident #${String(entry.details['incident_iid'] ?? '')}`.trim();
    case 'api':
      return 'The administrator';
    default:
      return 'The service';
  }
}

/** What an entry says, for each kind the timeline holds (other branches' kinds included). */
export function activityText(entry: ActivityEntry): ReactNode {
  const details = entry.details;
  const actor = actorOf(entry);
  switch (entry.kind) {
    case 'alert_created':
      return entry.source === 'heartbeat' ? 'Created: the integration sent nothing for its heartbeat interval.' : `Created by a payload of ${integrationOf(details)}.`;
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
      return `${actor} linked incident #${String(details['incident_iid'] ?? '')}.`;
    case 'incident_created':
    case 'incident_closed':
    case 'incident_reopened':
      return `${actor}: ${entry.kind.replace('_', ' ')}${details['incident_iid'] ? ` #${String(details['incident_iid'])}` : ''}.`;
    case 'notification_sent':
      return `Email sent to ${String(details['recipient'] ?? 'a recipient')}.`;
    case 'notification_failed':
      return `Email to ${String(details['recipient'] ?? 'a recipient')} failed${entry.reason ? `: ${entry.reason}` : ''}.`;
    case 'notification_suppressed':
      return `Email to ${String(details['recipient'] ?? 'a recipient')} suppressed${entry.reason ? `: ${entry.reason}` : ''}.`;
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

interface AlertActivityProps {
  projectId: number;
  iid: number;
  /** The caller may write notes (developer+). */
  canWrite: boolean;
}

/** The alert's timeline, oldest first (newest last), paged; a note form under it for developers+. */
export function AlertActivity({ projectId, iid, canWrite }: AlertActivityProps) {
  const [page, setPage] = useState(1);
  const activity = useAlertActivity(projectId, iid, page);
  const add = useAddAlertNote(projectId, iid);
  return (
    <div className="activity">
      <ErrorMessage error={activity.error} title="Activity" />
      {activity.isPending && <p className="muted">Loading the activity…</p>}
      {activity.data && (
        <ol className="timeline" aria-label={`Activity of alert #${iid}`}>
          {activity.data.items.map((entry) => (
            <li key={`${entry.kind}-${entry.id}-${entry.created_at}`} className={`timeline-entry timeline-${entry.kind}`}>
              <div className="timeline-text">{activityText(entry)}</div>
              <time className="muted" dateTime={entry.created_at} title={exactTime(entry.created_at)}>
                <TimeAgo iso={entry.created_at} />
              </time>
            </li>
          ))}
        </ol>
      )}
      {activity.data && <Pagination page={page} total={activity.data.total} perPage={ACTIVITY_PER_PAGE} onPage={setPage} />}
      {canWrite && <NoteForm add={add} />}
    </div>
  );
}

