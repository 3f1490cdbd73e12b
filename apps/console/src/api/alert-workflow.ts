import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@console/session/session';
import { dataOf } from './client';
import { queryKeys, useApiQuery } from './queries';
import { AlertStatus } from './types';

// The alert workflow's calls (docs/api-guide.md "Alert workflow"): assignees and bulk updates (the
// timeline and notes: activity.ts). One hook per call, each naming its path and body once.

export const workflowKeys = {
  candidates: (projectId: number) => [...queryKeys.alerts(projectId), 'assignee_candidates'] as const,
  activity: (projectId: number, iid: number) => [...queryKeys.alert(projectId, iid), 'activity'] as const,
};

/** The members an alert may be assigned to (developer+), by username. */
export function useAssigneeCandidates(projectId: number, enabled = true) {
  return useApiQuery(
    workflowKeys.candidates(projectId),
    (api) => dataOf(api.GET('/api/v4/projects/{id}/alerts/assignee_candidates', { params: { path: { id: projectId } } })),
    { enabled },
  );
}

/** Sets an alert's assignees (empty: nobody); the saved alert is known at once, lists and its timeline are read again. */
export function useSetAlertAssignees(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ iid, assigneeIds }: { iid: number; assigneeIds: number[] }) =>
      dataOf(api.PUT('/api/v4/projects/{id}/alerts/{iid}/assignees', { params: { path: { id: projectId, iid } }, body: { assignee_ids: assigneeIds } })),
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
      dataOf(api.POST('/api/v4/projects/{id}/alerts/bulk_update', { params: { path: { id: projectId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) }),
  });
}

