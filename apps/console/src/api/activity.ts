import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@console/session/session';
import { workflowKeys } from './alert-workflow';
import { dataOf, pageOf } from './client';
import { incidentKeys } from './incidents';
import { pollAlerts, useApiQuery, withTotal } from './queries';

// The activity timeline of an alert or an incident (docs/api-guide.md "Alert workflow"): the
// same two calls on either, `GET .../activity` and `POST .../notes`.

/** Whose timeline it is: an alert's or an incident's, in a project. */
export interface TimelineSubject {
  type: 'alert' | 'incident';
  projectId: number;
  iid: number;
}

/** Timeline entries per page: an alert's page shows more besides, an incident's is mostly its timeline. */
export const TIMELINE_PER_PAGE: Record<TimelineSubject['type'], number> = { alert: 50, incident: 100 };

/** The subject's timeline queries (every page), read again when a note is added. */
function timelineKey({ type, projectId, iid }: TimelineSubject) {
  return type === 'alert' ? workflowKeys.activity(projectId, iid) : incidentKeys.activity(projectId, iid);
}

/** One page of the subject's timeline, oldest first; read again while shown, like the subject. */
export function useTimeline(subject: TimelineSubject, page: number) {
  const { type, projectId, iid } = subject;
  const params = { path: { id: projectId, iid }, query: { page, per_page: TIMELINE_PER_PAGE[type] } };
  return useApiQuery(
    [...timelineKey(subject), page],
    (api) =>
      pageOf(
        type === 'alert' ? api.GET('/api/v4/projects/{id}/alerts/{iid}/activity', { params }) : api.GET('/api/v4/projects/{id}/incidents/{iid}/activity', { params }),
      ).then(withTotal),
    { placeholderData: keepPreviousData, refetchInterval: pollAlerts },
  );
}

/** Writes a note (Markdown) on the subject's timeline. */
export function useAddTimelineNote(subject: TimelineSubject) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { type, projectId, iid } = subject;
  return useMutation({
    mutationFn: (body: string) => {
      const request = { params: { path: { id: projectId, iid } }, body: { body } };
      return dataOf(type === 'alert' ? api.POST('/api/v4/projects/{id}/alerts/{iid}/notes', request) : api.POST('/api/v4/projects/{id}/incidents/{iid}/notes', request));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: timelineKey(subject) }),
  });
}
