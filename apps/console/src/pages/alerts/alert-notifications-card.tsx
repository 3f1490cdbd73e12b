import { AlertNotification, NotificationStatus, useAlertNotifications } from '@console/api/notifications';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { TimeAgo } from '@console/components/time-ago';

const STATUS_LABELS: Record<NotificationStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
  suppressed: 'Suppressed',
  cancelled: 'Cancelled',
};

/** What a record says beside its status: when it went or goes out, or why not. */
function outcome(notification: AlertNotification) {
  switch (notification.status) {
    case 'sent':
      return notification.sent_at && <TimeAgo iso={notification.sent_at} />;
    case 'pending':
      return notification.attempts === 0 ? (
        'Waiting for its bundle'
      ) : (
        <>
          Attempt {notification.attempts} refused: {notification.error}
        </>
      );
    case 'failed':
      return (
        <>
          After {notification.attempts} attempts: {notification.error}
        </>
      );
    case 'suppressed':
      return 'Over the hourly email limit of the recipient';
    case 'cancelled':
      return notification.error;
  }
}

/** The alert page's Notifications card: who was emailed about the alert, and what became of each email. */
export function AlertNotificationsCard({ projectId, iid }: { projectId: number; iid: number }) {
  const notifications = useAlertNotifications(projectId, iid);
  return (
    <div className="card">
      <h2>Notifications</h2>
      <ErrorMessage error={notifications.error} />
      <DataTable
        rows={notifications.data?.items}
        loading={notifications.isPending && 'the notifications'}
        empty={<p className="muted">No emails about this alert. Owners and maintainers with an email address get one when it is created or resolved, if the project's alert settings send email.</p>}
        columns={['Recipient', 'Reason', 'Status', 'Details']}
        scroll
      >
        {(notification) => (
          <tr key={notification.id}>
            <td>{notification.recipient}</td>
            <td>{notification.reason === 'new' ? 'New alert' : 'Resolved'}</td>
            <td>
              <span className={`badge badge-notification-${notification.status}`}>{STATUS_LABELS[notification.status]}</span>
            </td>
            <td>{outcome(notification)}</td>
          </tr>
        )}
      </DataTable>
    </div>
  );
}
