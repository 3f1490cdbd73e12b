import { useState } from 'react';
import { useChangeAlertStatus } from '@console/api/queries';
import { ALERT_STATUSES, AlertStatus } from '@console/api/types';
import { ApplySelect } from '@console/components/apply-select';

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
 * Enter (ApplySelect: the arrow keys never save). The outcome is announced, and a refusal is shown
 * under the control, which it describes.
 */
export function AlertStatusControl({ projectId, iid, status, showLabel, onChanged }: AlertStatusControlProps) {
  const change = useChangeAlertStatus(projectId);
  const [announcement, setAnnouncement] = useState('');

  const apply = (chosen: AlertStatus) => {
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

  return (
    <ApplySelect
      label={showLabel ? 'Status' : `Status of alert #${iid}`}
      showLabel={showLabel}
      groupLabel={showLabel ? 'Status change' : `Status change of alert #${iid}`}
      values={ALERT_STATUSES}
      optionLabel={(value) => STATUS_LABELS[value]}
      value={status}
      applyLabel="Change status"
      applyHiddenSuffix={showLabel ? undefined : ` of alert #${iid}`}
      pending={change.isPending}
      error={change.error}
      errorTitle="Status not changed"
      announcement={announcement}
      selectClassName={(chosen) => `status-select status-${chosen}`}
      onChoose={() => {
        setAnnouncement('');
        change.reset();
      }}
      onApply={apply}
    />
  );
}
