import { KeyboardEvent, useId, useState } from 'react';
import { useChangeAlertStatus } from '../../api/queries';
import { ALERT_STATUSES, AlertStatus } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { Options } from '../../components/options';

export const STATUS_LABELS: Record<AlertStatus, string> = {
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  ignored: 'Ignored',
};

interface AlertStatusControlProps {
  projectId: number;
  iid: number;
  status: AlertStatus;
  /** A visible "Status" label (the alert page); in the list the column header shows it. */
  showLabel?: boolean;
  /**
   * The status was saved. Returns true when the caller announces it itself (the list, when the
   * alert leaves the tab shown and its row with it).
   */
  onChanged?(status: AlertStatus): boolean | void;
}

/**
 * Changes an alert's status (developer+): choose a status, then apply it with "Change status" or
 * Enter. The arrow keys of a native select change its value (and fire change events) as they
 * move, so choosing and saving are two steps: a keyboard user passes over statuses freely. Nothing
 * is ever disabled, so the focus stays where it was while saving and after; the group is
 * `aria-busy` while saving, the outcome is announced, and a refusal is shown under the control,
 * which it describes.
 */
export function AlertStatusControl({ projectId, iid, status, showLabel, onChanged }: AlertStatusControlProps) {
  const change = useChangeAlertStatus(projectId);
  const id = useId();
  const errorId = `${id}-error`;
  // The status chosen but not saved yet; null: the alert's own status is shown.
  const [choice, setChoice] = useState<AlertStatus | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // A status that changes underneath (saved here, or by someone else and read by polling) replaces the choice.
  const [shownStatus, setShownStatus] = useState(status);
  if (shownStatus !== status) {
    setShownStatus(status);
    setChoice(null);
  }
  const chosen = choice ?? status;
  const pending = change.isPending;
  const nothingToApply = chosen === status;

  const apply = () => {
    if (pending || nothingToApply) return;
    setAnnouncement(`Saving the status of alert #${iid}: ${STATUS_LABELS[chosen]}…`);
    change.mutate(
      { iid, status: chosen },
      {
        onSuccess: (alert) => {
          const announcedByCaller = onChanged?.(alert.status) === true;
          setAnnouncement(announcedByCaller ? '' : `Alert #${iid} is now ${STATUS_LABELS[alert.status]}.`);
        },
        onError: () => setAnnouncement(''),
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLSelectElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    apply();
  };

  return (
    <div className="status-control" role="group" aria-label={showLabel ? 'Status change' : `Status change of alert #${iid}`} aria-busy={pending}>
      <label htmlFor={id} className={showLabel ? 'inline-label' : 'visually-hidden'}>
        {showLabel ? 'Status' : `Status of alert #${iid}`}
      </label>
      <select
        id={id}
        className={`status-select status-${chosen}`}
        value={chosen}
        aria-describedby={change.error ? errorId : undefined}
        onChange={(event) => {
          setChoice(event.target.value as AlertStatus);
          setAnnouncement('');
          change.reset();
        }}
        onKeyDown={onKeyDown}
      >
        <Options values={ALERT_STATUSES} label={(value) => STATUS_LABELS[value]} />
      </select>
      <button type="button" className="button button-small" aria-disabled={pending || nothingToApply} onClick={apply}>
        {pending ? 'Saving…' : 'Change status'}
        {!showLabel && <span className="visually-hidden"> of alert #{iid}</span>}
      </button>
      <span role="status" className="visually-hidden">
        {announcement}
      </span>
      <ErrorMessage id={errorId} error={change.error} title="Status not changed" inline />
    </div>
  );
}
