import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../session/session';
import { ListPage } from './client';
import { ALERTS_POLL_MS, PER_PAGE, queryKeys } from './queries';
import { ActivityEntry, Alert, AlertSettings, Incident, IncidentStatus, IncidentStatusCounts, Severity } from './types';

// Incidents and the alert settings (docs/api-guide.md "Incidents", "Alert settings"), in the
// ApiClient style of queries.ts: each hook names its path once and the shape it answers.

export type IncidentTab = IncidentStatus | 'all';

export const incidentKeys = {
  all: (projectId: number) => ['incidents', projectId] as const,
  incident: (projectId: number, iid: number) => ['incidents', projectId, 'detail', iid] as const,
  activity: (projectId: number, iid: number) => ['incidents', projectId, 'activity', iid] as const,
  settings: (projectId: number) => ['alert-settings', projectId] as const,
};

/** Polling stops while the last answer was an error (a 403 stays a 403). */
const poll = (query: { state: { status: string } }) => (query.state.status === 'error' ? false : ALERTS_POLL_MS);

export function useIncidents(projectId: number, tab: IncidentTab, search: string, page: number) {
  const api = useApi();
  return useQuery({
    queryKey: [...incidentKeys.all(projectId), 'list', tab, search, page],
    queryFn: async (): Promise<ListPage<Incident> & { total: number }> => {
      const result = await api.list<Incident>(`/projects/${projectId}/incidents`, { status: tab === 'all' ? undefined : tab, search, page, per_page: PER_PAGE });
      return { ...result, total: result.total ?? result.items.length };
    },
    placeholderData: keepPreviousData,
    refetchInterval: poll,
  });
}

export function useIncidentCounts(projectId: number) {
  const api = useApi();
  return useQuery({
    queryKey: [...incidentKeys.all(projectId), 'counts'],
    queryFn: () => api.get<IncidentStatusCounts>(`/projects/${projectId}/incidents/status_counts`),
    refetchInterval: poll,
  });
}

export function useIncident(projectId: number, iid: number) {
  const api = useApi();
  return useQuery({ queryKey: incidentKeys.incident(projectId, iid), queryFn: () => api.get<Incident>(`/projects/${projectId}/incidents/${iid}`), refetchInterval: poll });
}

/** The incident's timeline, oldest first (up to 100 entries a page). */
export function useIncidentActivity(projectId: number, iid: number, page = 1) {
  const api = useApi();
  return useQuery({
    queryKey: [...incidentKeys.activity(projectId, iid), page],
    queryFn: () => api.list<ActivityEntry>(`/projects/${projectId}/incidents/${iid}/activity`, { page, per_page: 100 }),
    placeholderData: keepPreviousData,
    refetchInterval: poll,
  });
}

/** Open, link, change (close, reopen), note: each reads incidents and alerts again (closing resolves alerts). */
export function useIncidentMutations(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  const onSuccess = (incident: Incident) => {
    queryClient.setQueryData(incidentKeys.incident(projectId, incident.iid), incident);
    void queryClient.invalidateQueries({ queryKey: incidentKeys.all(projectId) });
    // The alerts it links or resolves show their incident and status (the alert page's query is under the alerts key).
    void queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) });
  };
  return {
    create: useMutation({
      mutationFn: (body: { title: string; description?: string; severity?: Severity }) => api.post<Incident>(`/projects/${projectId}/incidents`, body),
      onSuccess,
    }),
    fromAlert: useMutation({ mutationFn: (alert: Pick<Alert, 'iid'>) => api.post<Incident>(`/projects/${projectId}/alerts/${alert.iid}/incident`), onSuccess }),
    link: useMutation({
      mutationFn: ({ iid, alertIid }: { iid: number; alertIid: number }) => api.post<Incident>(`/projects/${projectId}/incidents/${iid}/alerts`, { alert_iid: alertIid }),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ iid, ...changes }: { iid: number; status?: IncidentStatus; title?: string; description?: string | null; severity?: Severity }) =>
        api.put<Incident>(`/projects/${projectId}/incidents/${iid}`, changes),
      onSuccess,
    }),
    note: useMutation({
      mutationFn: ({ iid, body }: { iid: number; body: string }) => api.post<ActivityEntry>(`/projects/${projectId}/incidents/${iid}/notes`, { body }),
      onSuccess: () => queryClient.invalidateQueries({ queryKey: incidentKeys.all(projectId) }),
    }),
  };
}

export function useAlertSettings(projectId: number, enabled = true) {
  const api = useApi();
  return useQuery({ queryKey: incidentKeys.settings(projectId), queryFn: () => api.get<AlertSettings>(`/projects/${projectId}/alert_settings`), enabled });
}

export function useUpdateAlertSettings(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<Omit<AlertSettings, 'email_configured'>>) => api.put<AlertSettings>(`/projects/${projectId}/alert_settings`, changes),
    onSuccess: (settings) => queryClient.setQueryData(incidentKeys.settings(projectId), settings),
  });
}
