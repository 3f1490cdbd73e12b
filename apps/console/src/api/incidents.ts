import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@console/session/session';
import { dataOf, pageOf, Schemas } from './client';
import { PER_PAGE, pollAlerts, queryKeys, useApiQuery, withTotal } from './queries';
import { Alert, Incident, IncidentStatus } from './types';

// Incidents and the alert settings (docs/api-guide.md "Incidents", "Alert settings"): one hook per
// call, each naming its path once; bodies and answers are typed from the OpenAPI document.

export type IncidentTab = IncidentStatus | 'all';

export const incidentKeys = {
  all: (projectId: number) => ['incidents', projectId] as const,
  incident: (projectId: number, iid: number) => ['incidents', projectId, 'detail', iid] as const,
  activity: (projectId: number, iid: number) => ['incidents', projectId, 'activity', iid] as const,
  alerts: (projectId: number, iid: number) => ['incidents', projectId, 'alerts', iid] as const,
  settings: (projectId: number) => ['alert-settings', projectId] as const,
};

export function useIncidents(projectId: number, tab: IncidentTab, search: string, page: number) {
  return useApiQuery(
    [...incidentKeys.all(projectId), 'list', tab, search, page],
    (api) =>
      pageOf(
        api.GET('/api/v4/projects/{id}/incidents', {
          params: { path: { id: projectId }, query: { status: tab === 'all' ? undefined : tab, search, page, per_page: PER_PAGE } },
        }),
      ).then(withTotal),
    { placeholderData: keepPreviousData, refetchInterval: pollAlerts },
  );
}

export function useIncidentCounts(projectId: number) {
  return useApiQuery(
    [...incidentKeys.all(projectId), 'counts'],
    (api) => dataOf(api.GET('/api/v4/projects/{id}/incidents/status_counts', { params: { path: { id: projectId } } })),
    { refetchInterval: pollAlerts },
  );
}

export function useIncident(projectId: number, iid: number) {
  return useApiQuery(
    incidentKeys.incident(projectId, iid),
    (api) => dataOf(api.GET('/api/v4/projects/{id}/incidents/{iid}', { params: { path: { id: projectId, iid } } })),
    { refetchInterval: pollAlerts },
  );
}

/** The incident's alerts with their title, severity, status and latest event, open ones first, in one request. */
export function useIncidentAlerts(projectId: number, iid: number, enabled = true) {
  return useApiQuery(
    incidentKeys.alerts(projectId, iid),
    (api) => dataOf(api.GET('/api/v4/projects/{id}/incidents/{iid}/alerts', { params: { path: { id: projectId, iid } } })),
    { refetchInterval: pollAlerts, enabled },
  );
}

/** Open, link, change (close, reopen): each reads incidents and alerts again (closing resolves alerts). */
export function useIncidentMutations(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  // Settles once the pages shown are read again, so a caller's own onSuccess (a confirmation that
  // takes the focus from a control the change replaced) sees the page as it now is.
  const onSuccess = (incident: Incident) => {
    queryClient.setQueryData(incidentKeys.incident(projectId, incident.iid), incident);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: incidentKeys.all(projectId) }),
      // The alerts it links or resolves show their incident and status (the alert page's query is under the alerts key).
      queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) }),
    ]);
  };
  return {
    create: useMutation({
      mutationFn: (body: Schemas['CreateIncidentDto']) => dataOf(api.POST('/api/v4/projects/{id}/incidents', { params: { path: { id: projectId } }, body })),
      onSuccess,
    }),
    fromAlert: useMutation({
      mutationFn: (alert: Pick<Alert, 'iid'>) => dataOf(api.POST('/api/v4/projects/{id}/alerts/{iid}/incident', { params: { path: { id: projectId, iid: alert.iid } } })),
      onSuccess,
    }),
    link: useMutation({
      mutationFn: ({ iid, alertIid }: { iid: number; alertIid: number }) =>
        dataOf(api.POST('/api/v4/projects/{id}/incidents/{iid}/alerts', { params: { path: { id: projectId, iid } }, body: { alert_iid: alertIid } })),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ iid, ...changes }: { iid: number } & Schemas['UpdateIncidentDto']) =>
        dataOf(api.PUT('/api/v4/projects/{id}/incidents/{iid}', { params: { path: { id: projectId, iid } }, body: changes })),
      onSuccess,
    }),
  };
}

export function useAlertSettings(projectId: number, enabled = true) {
  return useApiQuery(incidentKeys.settings(projectId), (api) => dataOf(api.GET('/api/v4/projects/{id}/alert_settings', { params: { path: { id: projectId } } })), {
    enabled,
  });
}

export function useUpdateAlertSettings(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Schemas['UpdateAlertSettingsDto']) => dataOf(api.PUT('/api/v4/projects/{id}/alert_settings', { params: { path: { id: projectId } }, body: changes })),
    onSuccess: (settings) => queryClient.setQueryData(incidentKeys.settings(projectId), settings),
  });
}
