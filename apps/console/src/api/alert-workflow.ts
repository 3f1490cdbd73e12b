import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../session/session';
import { pollAlerts, queryKeys, useApiQuery, withTotal } from './queries';
import { ActivityEntry, Alert, AlertBulkUpdateResult, AlertStatus, AssigneeCandidate } from './types';

// The alert workflow's calls (docs/api-guide.md "Alert workflow"): assignees, bulk updates, the
// timeline and notes. One hook per call, each naming its path and body once.

/** Timeline entries per page on the alert page. */
export const ACTIVITY_PER_PAGE = 50;

export const workflowKeys = {
  candidates: (projectId: number) => [...queryKeys.alerts(projectId), 'assignee_candidates'] as const,
  activity: (projectId: number, iid: number) => [...queryKeys.alert(projectId, iid), 'activity'] as const,
};

/** The members an alert may be assigned to (developer+), by username. */
export function useAssigneeCandidates(projectId: number, enabled = true) {
  return useApiQuery(workflowKeys.candidates(projectId), (api) => api.get<AssigneeCandidate[]>(`/projects/${projectId}/alerts/assignee_candidates`), { enabled });
}

/** Sets an alert's assignees (empty: nobody); the saved alert is known at once, lists and its timeline are read again. */
export function useSetAlertAssignees(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ iid, assigneeIds }: { iid: number; assigneeIds: number[] }) =>
      api.put<Alert>(`/projects/${projectId}/alerts/${iid}/assignees`, { assignee_ids: assigneeIds }),
    onSuccess: (alert) => {
      queryClient.setQueryData(queryKeys.alert(projectId, alert.iid), alert);
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) });
    },
  });
}

/** A status and/or assignees for several alerts at once; resolved alerts are skipped, never reopened. */
export function useBulkUpdateAlerts(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { iids: number[]; status?: AlertStatus; assignee_ids?: number[] }) =>
      api.post<AlertBulkUpdateResult>(`/projects/${projectId}/alerts/bulk_update`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) }),
  });
}

/** One page of an alert's timeline, oldest first; read again while shown, like the alert. */
export function useAlertActivity(projectId: number, iid: number, page: number) {
  return useApiQuery(
    [...workflowKeys.activity(projectId, iid), page],
    (api) => api.list<ActivityEntry>(`/projects/${projectId}/alerts/${iid}/activity`, { page, per_page: ACTIVITY_PER_PAGE }).then(withTotal),
    { placeholderData: keepPreviousData, refetchInterval: pollAlerts },
  );
}

/** Writes a note (Markdown) on an alert's timeline. */
export function useAddAlertNote(projectId: number, iid: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => api.post<ActivityEntry>(`/projects/${projectId}/alerts/${iid}/notes`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowKeys.activity(projectId, iid) }),
  });
}
