import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@console/session/session';
import { dataOf, doneOf, Schemas } from './client';
import { pollAlerts, queryKeys, useApiQuery } from './queries';

// Escalation (docs/api-guide.md "Escalation policies", "Paging"): a project's policy, an alert's
// escalation, and the signed-in user's own paging. One hook per call, typed from the OpenAPI document.

export type EscalationPolicy = Schemas['EscalationPolicyDto'];
export type EscalationPolicyRequest = Schemas['UpdateEscalationPolicyDto'];
export type EscalationRuleRequest = Schemas['EscalationRuleRequestDto'];
export type EscalationTargetRequest = Schemas['EscalationTargetRequestDto'];
export type AlertEscalation = Schemas['AlertEscalationDto'];
export type ContactMethod = Schemas['ContactMethodDto'];
export type NotificationRule = Schemas['NotificationRuleDto'];

export const escalationKeys = {
  policy: (projectId: number) => ['escalation', projectId, 'policy'] as const,
  alert: (projectId: number, iid: number) => ['escalation', projectId, 'alert', iid] as const,
  paging: ['paging'] as const,
};

export function useEscalationPolicy(projectId: number) {
  return useApiQuery(escalationKeys.policy(projectId), (api) => dataOf(api.GET('/api/v4/projects/{id}/escalation_policy', { params: { path: { id: projectId } } })));
}

/** The policy a form holds, checked and said in words by the API (nothing stored); null: nothing to preview. */
export function usePolicyPreview(projectId: number, body: EscalationPolicyRequest | null) {
  return useApiQuery(
    [...escalationKeys.policy(projectId), 'preview', body],
    (api) => dataOf(api.POST('/api/v4/projects/{id}/escalation_policy/preview', { params: { path: { id: projectId } }, body: body as EscalationPolicyRequest })),
    { enabled: body !== null, placeholderData: keepPreviousData, retry: false },
  );
}

export function useEscalationPolicyMutations(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: escalationKeys.policy(projectId) });
  const path = { params: { path: { id: projectId } } };
  return {
    save: useMutation({ mutationFn: (body: EscalationPolicyRequest) => dataOf(api.PUT('/api/v4/projects/{id}/escalation_policy', { ...path, body })), onSuccess }),
    remove: useMutation({ mutationFn: () => doneOf(api.DELETE('/api/v4/projects/{id}/escalation_policy', path)), onSuccess }),
  };
}

/** An alert's escalation, read again as alerts are (its next step comes with time). */
export function useAlertEscalation(projectId: number, iid: number) {
  return useApiQuery(escalationKeys.alert(projectId, iid), (api) => dataOf(api.GET('/api/v4/projects/{id}/alerts/{iid}/escalation', { params: { path: { id: projectId, iid } } })), {
    refetchInterval: pollAlerts,
  });
}

/** Acknowledges an alert from its escalation card; the alert and its escalation are read again. */
export function useAcknowledgeAlert(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (iid: number) => dataOf(api.PUT('/api/v4/projects/{id}/alerts/{iid}', { params: { path: { id: projectId, iid } }, body: { status: 'acknowledged' } })),
    onSuccess: (_, iid) => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) }), queryClient.invalidateQueries({ queryKey: escalationKeys.alert(projectId, iid) })]),
  });
}

export function useContactMethods() {
  return useApiQuery([...escalationKeys.paging, 'methods'], (api) => dataOf(api.GET('/api/v4/user/contact_methods')));
}

export function useNotificationRules() {
  return useApiQuery([...escalationKeys.paging, 'rules'], (api) => dataOf(api.GET('/api/v4/user/notification_rules')));
}

export function usePagingSettings() {
  return useApiQuery([...escalationKeys.paging, 'settings'], (api) => dataOf(api.GET('/api/v4/user/paging_settings')));
}

/** The signed-in user's changes to their own paging; each reads their paging again. */
export function usePagingMutations() {
  const api = useApi();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: escalationKeys.paging });
  const method = (id: number) => ({ params: { path: { contact_method_id: id } } });
  return {
    createMethod: useMutation({ mutationFn: (body: Schemas['CreateContactMethodDto']) => dataOf(api.POST('/api/v4/user/contact_methods', { body })), onSuccess }),
    deleteMethod: useMutation({ mutationFn: (id: number) => doneOf(api.DELETE('/api/v4/user/contact_methods/{contact_method_id}', method(id))), onSuccess }),
    testMethod: useMutation({ mutationFn: (id: number) => dataOf(api.POST('/api/v4/user/contact_methods/{contact_method_id}/test', method(id))) }),
    createRule: useMutation({ mutationFn: (body: Schemas['CreateNotificationRuleDto']) => dataOf(api.POST('/api/v4/user/notification_rules', { body })), onSuccess }),
    deleteRule: useMutation({
      mutationFn: (id: number) => doneOf(api.DELETE('/api/v4/user/notification_rules/{notification_rule_id}', { params: { path: { notification_rule_id: id } } })),
      onSuccess,
    }),
    updateSettings: useMutation({ mutationFn: (body: Schemas['UpdatePagingSettingsDto']) => dataOf(api.PUT('/api/v4/user/paging_settings', { body })), onSuccess }),
  };
}
