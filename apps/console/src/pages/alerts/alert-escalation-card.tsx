import { AlertEscalation, useAcknowledgeAlert, useAlertEscalation } from '@console/api/escalation';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { TimeAgo } from '@console/components/time-ago';
import { exactTime } from '@console/lib/time';
import { useNow } from '@console/lib/use-now';

type Page = AlertEscalation['pages'][number];

const STATE_WORDS: Record<AlertEscalation['state'], string> = {
  none: 'Not escalated',
  skipped: 'Not escalated',
  running: 'Escalating',
  acknowledged: 'Acknowledged: only the "if not resolved" rules go on',
  ended: 'Ended',
};

const PAGE_STATUS: Record<Page['status'], string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed', cancelled: 'Cancelled' };

/** What a page says beside its status: when it went or goes, or why not. */
function pageOutcome(page: Page) {
  if (page.status === 'sent' && page.sent_at) return <TimeAgo iso={page.sent_at} />;
  if (page.status === 'pending') return page.attempts === 0 ? <>Due <TimeAgo iso={page.due_at} /></> : <>Attempt {page.attempts} failed: {page.error}</>;
  return page.error;
}

interface AlertEscalationCardProps {
  projectId: number;
  iid: number;
  /** The alert is triggered and the caller may acknowledge it: the card offers to, beside the next step. */
  canAcknowledge: boolean;
}

/** The alert page's Escalation card: where the escalation stands, its next step and when, who was paged and how (acknowledge from here). */
export function AlertEscalationCard({ projectId, iid, canAcknowledge }: AlertEscalationCardProps) {
  const escalation = useAlertEscalation(projectId, iid);
  const acknowledge = useAcknowledgeAlert(projectId);
  const now = useNow();
  const data = escalation.data;
  return (
    <div className="card alert-escalation">
      <h2>Escalation</h2>
      <ErrorMessage error={escalation.error} />
      <ErrorMessage error={acknowledge.error} title="Not acknowledged" />
      {data && (
        <>
          <p>
            <strong>{STATE_WORDS[data.state]}</strong>
            {data.state === 'none' && <span className="muted"> — the project had no escalation policy when this alert was triggered.</span>}
            {data.state === 'skipped' && <span className="muted"> — {data.ended_reason}</span>}
            {data.state === 'ended' && data.ended_reason && <span className="muted"> ({data.ended_reason === 'completed' ? 'every rule of every loop has paged' : data.ended_reason})</span>}
            {data.run > 1 && <span className="muted"> · run {data.run} (triggered again)</span>}
          </p>
          {data.next_step && (
            <div className="escalation-next">
              <span>
                Next: loop {data.next_step.loop}, rule {data.next_step.rule}: {data.next_step.description},{' '}
                <time dateTime={data.next_step.due_at} title={exactTime(data.next_step.due_at)}>
                  {Date.parse(data.next_step.due_at) <= now ? 'now' : <TimeAgo iso={data.next_step.due_at} now={now} />}
                </time>
                .
              </span>
              {canAcknowledge && (
                <button type="button" className="button button-primary" disabled={acknowledge.isPending} onClick={() => acknowledge.mutate(iid)}>
                  Acknowledge
                </button>
              )}
            </div>
          )}
          {data.rules.length > 0 && (
            <details>
              <summary>
                The policy it runs ({data.rules.length} {data.rules.length === 1 ? 'rule' : 'rules'}, {data.repeat + 1} {data.repeat === 0 ? 'loop' : 'loops'} of {data.loop_minutes} minutes)
              </summary>
              <ol>
                {data.rules.map((rule, index) => (
                  <li key={index}>{rule.description}</li>
                ))}
              </ol>
            </details>
          )}
          {data.state !== 'none' && (
            <DataTable rows={data.pages} empty={<p className="muted">Nobody paged yet.</p>} columns={['Loop, rule', 'Who', 'How', 'Status', 'Details']} scroll>
              {(page) => (
                <tr key={page.id}>
                  <td>{page.kind === 'notice' ? 'Notice' : `${page.loop}, ${page.rule}`}</td>
                  <td>{page.user ? `@${page.user.username}` : 'Webhook'}</td>
                  <td>
                    {page.method === 'email' ? 'Email' : 'Webhook'} <span className="muted">{page.address}</span>
                  </td>
                  <td>
                    <span className={`badge badge-page-${page.status}`}>{PAGE_STATUS[page.status]}</span>
                  </td>
                  <td>{pageOutcome(page)}</td>
                </tr>
              )}
            </DataTable>
          )}
        </>
      )}
    </div>
  );
}
