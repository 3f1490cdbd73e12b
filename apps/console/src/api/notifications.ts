// Alert emails as the console reads and sets them: who was mailed about an alert (the alert page's
// Notifications card), and the signed-in user's own address (the Profile page).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@console/session/session';
import { dataOf, pageOf, Schemas } from './client';
import { ALERTS_POLL_MS } from './queries';

export type AlertNotification = Schemas['AlertNotificationDto'];
export type NotificationStatus = AlertNotification['status'];

export const notificationKeys = {
  alert: (projectId: number, iid: number) => ['alert_notifications', projectId, iid] as const,
  currentUser: ['user'] as const,
};

/** The emails about one alert, newest first (the latest 100); read again while the page is open. */
export function useAlertNotifications(projectId: number, iid: number) {
  const api = useApi();
  return useQuery({
    queryKey: notificationKeys.alert(projectId, iid),
    queryFn: () => pageOf(api.GET('/api/v4/projects/{id}/alert_notifications', { params: { path: { id: projectId }, query: { alert_iid: iid, per_page: 100 } } })),
    refetchInterval: (query) => (query.state.status === 'error' ? false : ALERTS_POLL_MS),
  });
}

/** Who the token belongs to, with their email address (`GET /user`). */
export function useCurrentUser() {
  const api = useApi();
  return useQuery({ queryKey: notificationKeys.currentUser, queryFn: () => dataOf(api.GET('/api/v4/user')) });
}

/** Sets (or with null clears) the signed-in user's own email address (`PUT /user`). */
export function useSetOwnEmail() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string | null) => dataOf(api.PUT('/api/v4/user', { body: { email } })),
    onSuccess: (user) =>
      queryClient.setQueryData<Schemas['CurrentUserDto']>(notificationKeys.currentUser, (current) => (current ? { ...current, email: user.email } : current)),
  });
}
