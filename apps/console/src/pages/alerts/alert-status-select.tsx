import { useId } from 'react';
import { useChangeAlertStatus } from '../../api/queries';
import { ALERT_STATUSES, AlertStatus } from '../../api/types';

export const STATUS_LABELS: Record<AlertStatus, string> = {
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  ignored: 'Ignored',
};

/** Changes an alert's status in place (developer+); errors go to `onError` for the page to show. */
export function AlertStatusSelect({
  projectId,
  iid,
  status,
  onError,
  showLabel,
}: {
  projectId: number;
  iid: number;
  status: AlertStatus;
  onError(error: unknown): void;
  /** A visible "Status" label (the detail page); the list's column header labels it there. */
  showLabel?: boolean;
}) {
  const change = useChangeAlertStatus(projectId);
  const id = useId();
  return (
    <>
      <label htmlFor={id} className={showLabel ? 'inline-label' : 'visually-hidden'}>
        {showLabel ? 'Status' : `Status of alert #${iid}`}
      </label>
      <select
        id={id}
        className={`status-select status-${status}`}
        value={status}
        disabled={change.isPending}
        onChange={(event) => {
          onError(null);
          change.mutate({ iid, status: event.target.value as AlertStatus }, { onError });
        }}
      >
        {ALERT_STATUSES.map((value) => (
          <option key={value} value={value}>
            {STATUS_LABELS[value]}
          </option>
        ))}
      </select>
    </>
  );
}
