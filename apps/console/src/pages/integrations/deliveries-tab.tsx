import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ALERTS_POLL_MS, DELIVERIES_PER_PAGE, useDeliveries } from '@console/api/queries';
import { Delivery, Integration, Project } from '@console/api/types';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage, Loading } from '@console/components/error-message';
import { Pagination } from '@console/components/pagination';
import { useListQuery } from '@console/lib/use-list-query';
import { TimeAgo } from '@console/components/time-ago';
import { bodyNotRead, formatBytes, statusClass, statusLabel } from '@console/lib/deliveries';
import { exactTime, utcTime } from '@console/lib/time';
import { useNow } from '@console/lib/use-now';
import { DeliveryBodyViewer } from './delivery-body-viewer';

interface DeliveriesTabProps {
  project: Project;
  integration: Integration;
  /** "Use as sample payload": the body's text for the Configure details tab. */
  onUseAsSample(text: string, delivery: Delivery): void;
}

/**
 * "Deliveries": what was sent to the integration's URL and what the gateway answered, newest first,
 * refusals included (a wrong key, a body that is not JSON, too large, over the rate limit): the
 * answers a monitoring tool gets but no alert shows. Selecting one shows its body.
 */
export function DeliveriesTab({ project, integration, onUseAsSample }: DeliveriesTabProps) {
  const { page, paging } = useListQuery();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const deliveries = useDeliveries(project.id, integration.id, page);
  const now = useNow();
  const viewerId = useId();
  const rows = deliveries.data?.items ?? [];
  // Looked up on every refresh: a 202 becomes its 200 while open; one pruned away closes.
  const selected = rows.find((delivery) => delivery.id === selectedId) ?? null;

  return (
    <div className="card">
      <h2>Deliveries</h2>
      <p className="muted">
        The latest requests to this integration&apos;s URL, newest first, with the status the gateway answered: refused ones too. The body is
        kept as received (its first 64 KiB); credentials never are. Refreshed every {ALERTS_POLL_MS / 1000} seconds.
      </p>
      {!integration.active && (
        <div className="notice notice-warning" role="status">
          This integration is disabled: its URL answers 404 and those requests are not listed. Turn on Active in Configure details.
        </div>
      )}
      <ErrorMessage error={deliveries.error} />
      {deliveries.isPending && <Loading what="deliveries" />}
      {deliveries.data && rows.length === 0 && <NoDeliveries projectId={project.id} integration={integration} />}
      {rows.length > 0 && (
        <div className={selected ? 'deliveries deliveries-with-body' : 'deliveries'}>
          <DataTable
            rows={rows}
            columns={['Received', 'Status and error', 'Key', 'Alerts', { label: 'Body', className: 'numeric' }]}
            className="deliveries-table"
            scroll
          >
            {(delivery) => (
              <DeliveryRow
                key={delivery.id}
                delivery={delivery}
                projectId={project.id}
                now={now}
                selected={delivery.id === selectedId}
                viewerId={viewerId}
                onSelect={() => setSelectedId(delivery.id === selectedId ? null : delivery.id)}
              />
            )}
          </DataTable>
          {selected && (
            <div id={viewerId}>
              <DeliveryBodyViewer
                delivery={selected}
                premium={project.tier === 'premium'}
                onUseAsSample={(text) => onUseAsSample(text, selected)}
                onClose={() => setSelectedId(null)}
              />
            </div>
          )}
        </div>
      )}
      {deliveries.data && (
        <Pagination {...paging} total={deliveries.data.total} nextPage={deliveries.data.nextPage} perPage={DELIVERIES_PER_PAGE} />
      )}
    </div>
  );
}

interface DeliveryRowProps {
  delivery: Delivery;
  projectId: number;
  now: number;
  selected: boolean;
  viewerId: string;
  onSelect(): void;
}

function DeliveryRow({ delivery, projectId, now, selected, viewerId, onSelect }: DeliveryRowProps) {
  const status = statusClass(delivery.status);
  return (
    <tr className={selected ? 'row-selected' : undefined}>
      <td className="nowrap">
        <TimeAgo iso={delivery.received_at} now={now} />
      </td>
      <td>
        <span className={`http-status http-status-${status}`} title={delivery.status === 202 ? 'Accepted; shown as processed once it is' : undefined}>
          {statusLabel(delivery.status)}
        </span>
        {delivery.error && (
          <>
            {' '}
            <code className="delivery-error">{delivery.error}</code>
          </>
        )}
      </td>
      <td>
        <KeyUsed used={delivery.authorization_key} expiresAt={delivery.authorization_key_expires_at ?? null} />
      </td>
      <td>
        {delivery.alerts.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <ul className="delivery-alerts">
            {delivery.alerts.map((alert, index) => (
              <li key={`${alert.iid}-${index}`}>
                <Link to={`/projects/${projectId}/alerts/${alert.iid}`}>
                  #{alert.iid} {alert.title}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td className="numeric">
        <div className="delivery-body-cell">
          {bodyNotRead(delivery) ? <span title="Refused before its body was read">not read</span> : <span>{formatBytes(delivery.body_size)}</span>}
          <button
            type="button"
            className="button button-small"
            aria-expanded={selected}
            aria-controls={selected ? viewerId : undefined}
            aria-label={`${selected ? 'Hide' : 'View'} the body of the ${statusLabel(delivery.status)} delivery of ${exactTime(delivery.received_at)}`}
            onClick={onSelect}
          >
            {selected ? 'Hide' : 'View'}
          </button>
        </div>
      </td>
    </tr>
  );
}

/**
 * Which authorization key a delivery used; "none" when no key matched (or none was checked). A
 * previous key is named by its expiry, as View credentials lists it, so the senders still on the
 * oldest one can be found.
 */
function KeyUsed({ used, expiresAt }: { used: Delivery['authorization_key']; expiresAt: string | null }) {
  if (used === null) return <span className="muted">none</span>;
  if (used === 'current') return <span title="The current authorization key">current</span>;
  return (
    <span className="key-previous" title="A previous authorization key, during a key rotation's grace period: move this sender to the current key">
      previous
      {expiresAt && (
        <span className="key-previous-expiry">
          {' '}
          (valid until <time dateTime={expiresAt}>{utcTime(expiresAt)}</time>)
        </span>
      )}
    </span>
  );
}

/** Nothing sent yet: how to send the first alert (the URL and a curl example, never the real key). */
function NoDeliveries({ projectId, integration }: { projectId: number; integration: Integration }) {
  const base = `/projects/${projectId}/settings/alerts/${integration.id}`;
  return (
    <div className="empty">
      <p>No deliveries yet. Every request to this integration&apos;s URL will be listed here, refused ones included.</p>
      <p>
        Point your monitoring tool at the URL with the authorization key (both under <Link to={`${base}/credentials`}>View credentials</Link>), or
        send one from a terminal:
      </p>
      <pre className="code-block" tabIndex={0} aria-label="Example request">
        {`curl -X POST '${integration.url ?? ''}' \\\n  -H 'Authorization: Bearer <authorization key>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"title": "Disk full", "severity": "high", "hosts": ["db-1"]}'`}
      </pre>
      <p>
        Or <Link to={`${base}/test`}>send a test alert</Link> from here.
      </p>
    </div>
  );
}
