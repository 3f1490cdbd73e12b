import { keepPreviousData, QueryKey, useMutation, useQuery, useQueryClient, UseQueryOptions } from '@tanstack/react-query';
import { useApi } from '@console/session/session';
import { answerOf, ApiClient, ApiError, dataOf, doneOf, ListPage, pageOf, Schemas } from './client';
import { AccessLevel, AlertStatus, DeprecationArea, Integration, ProjectTier, Severity, SilenceState, TestAlertAnswer } from './types';

/** New alerts and deliveries appear without a reload: lists and counts are read again this often. */
export const ALERTS_POLL_MS = 5_000;
/** Polling stops while the last answer was an error (a 403 stays a 403), and resumes on a manual retry. */
export const pollAlerts = (query: { state: { status: string } }) => (query.state.status === 'error' ? false : ALERTS_POLL_MS);
export const PER_PAGE = 20;
/** The deliveries API's page: the latest 100 (CONTRACT.md "at least the last 100"). */
export const DELIVERIES_PER_PAGE = 100;

export const queryKeys = {
  projects: (search: string, page: number) => ['projects', search, page] as const,
  project: (projectId: number) => ['project', projectId] as const,
  members: (projectId: number) => ['members', projectId] as const,
  integrations: (projectId: number) => ['integrations', projectId] as const,
  integration: (projectId: number, integrationId: number) => ['integrations', projectId, integrationId] as const,
  alerts: (projectId: number) => ['alerts', projectId] as const,
  alert: (projectId: number, iid: number) => ['alerts', projectId, 'detail', iid] as const,
  silences: (projectId: number) => ['silences', projectId] as const,
  silence: (projectId: number, silenceId: number) => ['silences', projectId, 'detail', silenceId] as const,
  deliveries: (projectId: number, integrationId: number) => ['deliveries', projectId, integrationId] as const,
  previews: (projectId: number) => ['preview', projectId] as const,
  deprecations: ['deprecations'] as const,
};

type ApiQueryOptions<T> = Omit<UseQueryOptions<T>, 'queryKey' | 'queryFn'>;

/** A query of the API with the session's client, which `read` is given. */
export function useApiQuery<T>(queryKey: QueryKey, read: (api: ApiClient) => Promise<T>, options: ApiQueryOptions<NoInfer<T>> = {}) {
  const api = useApi();
  return useQuery({ ...options, queryKey, queryFn: () => read(api) });
}

export function useProjects(search: string, page: number) {
  return useApiQuery(queryKeys.projects(search, page), (api) => pageOf(api.GET('/api/v4/projects', { params: { query: { search, page, per_page: PER_PAGE } } })), {
    placeholderData: keepPreviousData,
  });
}

export function useProject(projectId: number) {
  return useApiQuery(queryKeys.project(projectId), (api) => dataOf(api.GET('/api/v4/projects/{id}', { params: { path: { id: projectId } } })));
}

export function useCreateProject() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['CreateProjectDto']) => dataOf(api.POST('/api/v4/projects', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects'] }),
  });
}

export function useChangeTier(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tier: ProjectTier) => dataOf(api.PUT('/api/v4/projects/{id}', { params: { path: { id: projectId } }, body: { tier } })),
    onSuccess: () => queryClient.invalidateQueries({ predicate: (query) => ['projects', 'project'].includes(String(query.queryKey[0])) }),
  });
}

export function useCreateUser() {
  const api = useApi();
  return useMutation({ mutationFn: (body: Schemas['CreateUserDto']) => dataOf(api.POST('/api/v4/users', { body })) });
}

export function useMembers(projectId: number, enabled = true) {
  return useApiQuery(queryKeys.members(projectId), (api) => dataOf(api.GET('/api/v4/projects/{id}/members', { params: { path: { id: projectId } } })), { enabled });
}

/** Users who can be added to the project, by username search (admin, owner). */
export function useMemberCandidates(projectId: number, search: string, enabled: boolean) {
  return useApiQuery(
    ['members', projectId, 'candidates', search],
    (api) => dataOf(api.GET('/api/v4/projects/{id}/members/candidates', { params: { path: { id: projectId }, query: { search } } })),
    { enabled, placeholderData: keepPreviousData },
  );
}

export function useMemberMutations(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: queryKeys.members(projectId) });
  return {
    add: useMutation({
      mutationFn: (body: Schemas['AddMemberDto']) => dataOf(api.POST('/api/v4/projects/{id}/members', { params: { path: { id: projectId } }, body })),
      onSuccess,
    }),
    change: useMutation({
      mutationFn: ({ userId, accessLevel }: { userId: number; accessLevel: AccessLevel }) =>
        dataOf(api.PUT('/api/v4/projects/{id}/members/{user_id}', { params: { path: { id: projectId, user_id: userId } }, body: { access_level: accessLevel } })),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (userId: number) => doneOf(api.DELETE('/api/v4/projects/{id}/members/{user_id}', { params: { path: { id: projectId, user_id: userId } } })),
      onSuccess,
    }),
  };
}

export function useIntegrations(projectId: number, enabled = true) {
  return useApiQuery(queryKeys.integrations(projectId), (api) => dataOf(api.GET('/api/v4/projects/{id}/alert_integrations', { params: { path: { id: projectId } } })), {
    enabled,
  });
}

export function useIntegration(projectId: number, integrationId: number | null) {
  return useApiQuery(
    queryKeys.integration(projectId, integrationId ?? 0),
    (api) => dataOf(api.GET('/api/v4/projects/{id}/alert_integrations/{iid}', { params: { path: { id: projectId, iid: integrationId ?? 0 } } })),
    // Keeps the heartbeat status and the last request current while the page is open.
    { enabled: integrationId !== null, refetchInterval: pollAlerts },
  );
}

export function useIntegrationMutations(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  const path = (iid: number) => ({ path: { id: projectId, iid } });
  const stored = (integration: Schemas['IntegrationDto']) => {
    queryClient.setQueryData(queryKeys.integration(projectId, integration.id), integration);
    // A preview without a proposed mapping runs under the saved one, which may have changed.
    void queryClient.invalidateQueries({ queryKey: queryKeys.previews(projectId) });
    return queryClient.invalidateQueries({ queryKey: queryKeys.integrations(projectId), exact: true });
  };
  return {
    create: useMutation({
      mutationFn: (body: Schemas['CreateIntegrationDto']) => dataOf(api.POST('/api/v4/projects/{id}/alert_integrations', { params: { path: { id: projectId } }, body })),
      onSuccess: stored,
    }),
    update: useMutation({
      mutationFn: ({ id, changes }: { id: number; changes: Schemas['UpdateIntegrationDto'] }) =>
        dataOf(api.PUT('/api/v4/projects/{id}/alert_integrations/{iid}', { params: path(id), body: changes })),
      onSuccess: stored,
    }),
    remove: useMutation({
      mutationFn: (id: number) => doneOf(api.DELETE('/api/v4/projects/{id}/alert_integrations/{iid}', { params: path(id) })),
      onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.integrations(projectId) }),
    }),
    /** A new authorization key; with a grace period (minutes) the replaced key keeps working until it ends. */
    resetKey: useMutation({
      mutationFn: ({ id, gracePeriodMinutes, revokePreviousKeys = false }: { id: number; gracePeriodMinutes: number; revokePreviousKeys?: boolean }) =>
        dataOf(
          api.POST('/api/v4/projects/{id}/alert_integrations/{iid}/reset_authorization_key', {
            params: path(id),
            body: { grace_period_minutes: gracePeriodMinutes, ...(revokePreviousKeys ? { revoke_previous_keys: true } : {}) },
          }),
        ),
      onSuccess: stored,
    }),
    /** A new random webhook signing secret. */
    resetSigningSecret: useMutation({
      mutationFn: (id: number) => dataOf(api.POST('/api/v4/projects/{id}/alert_integrations/{iid}/reset_signing_secret', { params: path(id) })),
      onSuccess: stored,
    }),
    /**
     * The answer names the alerts created or grouped into; each is then read (developer+, like the
     * test alert), so the console can say which it was (describeTestAlert).
     */
    testAlert: useMutation({
      mutationFn: async ({ id, payload }: { id: number; payload: string }): Promise<TestAlertAnswer> => {
        const answer = await answerOf(api.POST('/api/v4/projects/{id}/alert_integrations/{iid}/test_alert', { params: path(id), body: { payload } }));
        const iids = [...new Set(answer.data.alerts.map((alert) => alert.iid))];
        const alerts = await Promise.all(iids.map((iid) => readAlert(api, projectId, iid).catch(() => null)));
        return { status: answer.status, result: answer.data, alerts: alerts.filter((alert) => alert !== null) };
      },
      onSuccess: (_result, { id }) =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) }),
          queryClient.invalidateQueries({ queryKey: queryKeys.deliveries(projectId, id) }),
        ]),
    }),
  };
}

/** "Parse payload for custom mapping" of a sample payload text (null: nothing parsed yet). */
export function useParsedSamplePayload(projectId: number, samplePayload: string | null) {
  return useApiQuery(
    ['parse_sample_payload', projectId, samplePayload],
    (api) =>
      dataOf(
        api.POST('/api/v4/projects/{id}/alert_integrations/parse_sample_payload', {
          params: { path: { id: projectId } },
          body: { sample_payload: samplePayload ?? '' },
        }),
      ),
    { enabled: samplePayload !== null, staleTime: Infinity },
  );
}

/** What was sent to an integration's URL, newest first; read again while shown, like the alert list. */
export function useDeliveries(projectId: number, integrationId: number, page: number) {
  return useApiQuery(
    [...queryKeys.deliveries(projectId, integrationId), page],
    (api) =>
      pageOf(
        api.GET('/api/v4/projects/{id}/alert_integrations/{iid}/deliveries', {
          params: { path: { id: projectId, iid: integrationId }, query: { page, per_page: DELIVERIES_PER_PAGE } },
        }),
      ),
    { placeholderData: keepPreviousData, refetchInterval: pollAlerts },
  );
}

export interface PreviewRequest {
  integrationId: number;
  /** The payload as JSON text. */
  payload: string;
  /** A proposed payload field mapping; undefined: the integration's saved one (and on Free, none). */
  mapping?: readonly Schemas['PayloadFieldMappingEntryDto'][];
  /**
   * The test alert's preview (`POST .../test_alert/preview`, developer+): always under the saved
   * mapping, so it takes no `mapping`. Otherwise the maintainers' `POST .../preview`.
   */
  testAlert?: boolean;
}

/** What a payload would become (`POST .../preview` or `.../test_alert/preview`, which store nothing); null: nothing to preview. */
export function usePreview(projectId: number, request: PreviewRequest | null) {
  return useApiQuery(
    [...queryKeys.previews(projectId), request],
    (api) => {
      const params = { path: { id: projectId, iid: request?.integrationId ?? 0 } };
      const payload = request?.payload ?? '';
      return request?.testAlert
        ? dataOf(api.POST('/api/v4/projects/{id}/alert_integrations/{iid}/test_alert/preview', { params, body: { payload } }))
        : dataOf(
            api.POST('/api/v4/projects/{id}/alert_integrations/{iid}/preview', {
              params,
              body: { payload, ...(request?.mapping === undefined ? {} : { payload_field_mapping: [...request.mapping] }) },
            }),
          );
    },
    { enabled: request !== null, placeholderData: keepPreviousData },
  );
}

/**
 * What a test alert is written from (`GET .../test_alert`, developer+): the sample payload and
 * whether a custom mapping applies. Read afresh each time it is asked for (no cache once unused),
 * as it seeds the test payload once and a maintainer may have changed the sample meanwhile.
 */
export function useTestAlertSample(projectId: number, integrationId: number | null) {
  return useApiQuery(
    [...queryKeys.integration(projectId, integrationId ?? 0), 'test_alert'],
    (api) => dataOf(api.GET('/api/v4/projects/{id}/alert_integrations/{iid}/test_alert', { params: { path: { id: projectId, iid: integrationId ?? 0 } } })),
    { enabled: integrationId !== null, gcTime: 0 },
  );
}

/** The alert list's tabs: GitLab's, with "open" meaning triggered or acknowledged (the API's `status=open`). */
export type AlertTab = 'open' | 'triggered' | 'acknowledged' | 'resolved' | 'all';

/** The alert list's silence filter: every alert, only those an active silence covers, or only the others. */
export type SilencedFilter = 'any' | 'silenced' | 'not_silenced';

/**
 * A page of a list paged by number (alerts, silences) with the total its pagination shows: without
 * `X-Total`, the items of this page are all there are.
 */
export function withTotal<T>(page: ListPage<T>): ListPage<T> & { total: number } {
  return { ...page, total: page.total ?? page.items.length };
}

function readAlert(api: ApiClient, projectId: number, iid: number) {
  return dataOf(api.GET('/api/v4/projects/{id}/alerts/{iid}', { params: { path: { id: projectId, iid } } }));
}

/** The list's sort and filters beyond tab, search and page (docs/api-guide.md "Sorting and filtering the list"). */
export interface AlertListFilters {
  silenced?: SilencedFilter;
  /** `assignee_id` (`me`, `none`) or `assignee_username`: assigneeQuery. */
  assignee?: { assignee_id?: 'me' | 'none'; assignee_username?: string };
  severities?: readonly Severity[];
  order?: { sort: 'severity' | 'started_at' | 'events' | 'updated_at'; order: 'asc' | 'desc' } | null;
}

export function useAlerts(projectId: number, tab: AlertTab, search: string, page: number, filters: AlertListFilters = {}) {
  const status = tab === 'all' ? undefined : tab;
  const silencedFilter = filters.silenced ?? 'any';
  const silenced = silencedFilter === 'any' ? undefined : silencedFilter === 'silenced';
  const severity = filters.severities && filters.severities.length > 0 ? [...filters.severities] : undefined;
  const query = { status, search, silenced, ...filters.assignee, severity, sort: filters.order?.sort, order: filters.order?.order, page, per_page: PER_PAGE };
  return useApiQuery(
    [...queryKeys.alerts(projectId), 'list', tab, search, page, silencedFilter, filters.assignee ?? {}, severity ?? [], filters.order ?? null],
    (api) => pageOf(api.GET('/api/v4/projects/{id}/alerts', { params: { path: { id: projectId }, query } })).then(withTotal),
    { placeholderData: keepPreviousData, refetchInterval: pollAlerts },
  );
}

export function useAlertCounts(projectId: number) {
  return useApiQuery(
    [...queryKeys.alerts(projectId), 'counts'],
    (api) => dataOf(api.GET('/api/v4/projects/{id}/alerts/status_counts', { params: { path: { id: projectId } } })),
    { refetchInterval: pollAlerts },
  );
}

export function useAlert(projectId: number, iid: number, enabled = true) {
  return useApiQuery(queryKeys.alert(projectId, iid), (api) => readAlert(api, projectId, iid), {
    refetchInterval: pollAlerts,
    enabled,
  });
}

export function useChangeAlertStatus(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ iid, status }: { iid: number; status: AlertStatus }) =>
      dataOf(api.PUT('/api/v4/projects/{id}/alerts/{iid}', { params: { path: { id: projectId, iid } }, body: { status } })),
    // The saved alert is known at once; lists and counts are read again without holding up the
    // answer, so the control is free again as soon as the status is stored.
    onSuccess: (alert) => {
      queryClient.setQueryData(queryKeys.alert(projectId, alert.iid), alert);
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) });
    },
    // A refused change may be refused because the alert changed meanwhile: read what is stored.
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) }),
  });
}

/** A silence as the create form sends it (docs/api-guide.md "Silences"). */
export type SilenceRequest = Schemas['CreateSilenceDto'];

export function useSilences(projectId: number, state: SilenceState | 'all', page: number) {
  return useApiQuery(
    [...queryKeys.silences(projectId), 'list', state, page],
    (api) =>
      pageOf(
        api.GET('/api/v4/projects/{id}/silences', { params: { path: { id: projectId }, query: { state: state === 'all' ? undefined : state, page, per_page: PER_PAGE } } }),
      ).then(withTotal),
    // A silence turns from pending to active to expired with time alone.
    { placeholderData: keepPreviousData, refetchInterval: pollAlerts },
  );
}

export function useSilence(projectId: number, silenceId: number | null) {
  return useApiQuery(
    queryKeys.silence(projectId, silenceId ?? 0),
    (api) => dataOf(api.GET('/api/v4/projects/{id}/silences/{silence_id}', { params: { path: { id: projectId, silence_id: silenceId ?? 0 } } })),
    { enabled: silenceId !== null },
  );
}

/** Create, edit and expire; each reads the silences and the alerts again (their badges follow the silences). */
export function useSilenceMutations(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  const onSuccess = (silence: Schemas['SilenceDto']) => {
    queryClient.setQueryData(queryKeys.silence(projectId, silence.id), silence);
    void queryClient.invalidateQueries({ queryKey: queryKeys.silences(projectId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) });
  };
  const path = (id: number) => ({ path: { id: projectId, silence_id: id } });
  return {
    create: useMutation({
      mutationFn: (body: SilenceRequest) => dataOf(api.POST('/api/v4/projects/{id}/silences', { params: { path: { id: projectId } }, body })),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: number; body: Schemas['UpdateSilenceDto'] }) => dataOf(api.PUT('/api/v4/projects/{id}/silences/{silence_id}', { params: path(id), body })),
      onSuccess,
    }),
    expire: useMutation({
      mutationFn: (id: number) => dataOf(api.POST('/api/v4/projects/{id}/silences/{silence_id}/expire', { params: path(id) })),
      onSuccess,
    }),
  };
}

export interface DeprecationFilters {
  q: string;
  removal_milestone: string;
  breaking: '' | 'true' | 'false';
  area: DeprecationArea | '';
}

export function useDeprecations(filters: DeprecationFilters) {
  return useApiQuery(
    [...queryKeys.deprecations, 'list', filters],
    (api) =>
      dataOf(
        api.GET('/api/v4/deprecations', {
          params: { query: { ...filters, breaking: filters.breaking || undefined, area: filters.area || undefined } },
        }),
      ),
    { placeholderData: keepPreviousData, staleTime: Infinity },
  );
}

export function useUpgradeReport(range: { from: string; to: string } | null) {
  return useApiQuery(
    [...queryKeys.deprecations, 'upgrade_report', range],
    (api) => dataOf(api.GET('/api/v4/deprecations/upgrade_report', { params: { query: range ?? { from: '', to: '' } } })),
    { enabled: range !== null, staleTime: Infinity },
  );
}

export function usePipelineCheck() {
  const api = useApi();
  return useMutation({
    // The pipeline configuration is sent as is, as YAML.
    mutationFn: async ({ content, target }: { content: string; target: string }) => {
      const answer = await dataOf(
        api.POST('/api/v4/deprecations/check', {
          params: { query: { target } },
          body: content,
          bodySerializer: (body) => body,
          headers: { 'Content-Type': 'text/yaml' },
        }),
      );
      // A Code Quality report (an array) answers `format=codequality` only, which is not asked for.
      if (Array.isArray(answer)) throw new ApiError(200, 'unexpected_answer', 'The checker answered with a Code Quality report, which was not asked for.');
      return answer;
    },
  });
}

/** The project's active external link integration (spec 2.3), for the alert list's "View alerts" link. */
export function useActiveExternalLink(projectId: number, enabled: boolean): Integration | null {
  const integrations = useIntegrations(projectId, enabled);
  const link = integrations.data?.find((integration) => integration.type === 'external_link' && integration.active);
  return useIntegration(projectId, link?.id ?? null).data ?? null;
}
