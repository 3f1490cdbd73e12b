import { useState } from 'react';
import { ACTIVITY_PER_PAGE, useAddAlertNote, useAlertActivity } from '../../api/alert-workflow';
import { ActivityTimeline } from '../../components/activity-timeline';

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
    <ActivityTimeline
      subject={{ type: 'alert', projectId, iid }}
      activity={activity}
      page={page}
      perPage={ACTIVITY_PER_PAGE}
      onPage={setPage}
      addNote={canWrite ? add : undefined}
    />
  );
}
