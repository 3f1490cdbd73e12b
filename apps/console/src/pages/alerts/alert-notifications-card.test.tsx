import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AlertNotification } from '@console/api/notifications';
import { alertFixture } from '@console/testing/alert-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 5, username: 'dev', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'developer' };
const ALERT = alertFixture();
const record = (id: number, fields: Partial<AlertNotification>): AlertNotification => ({
  id,
  alert_iid: 2,
  user_id: id,
  recipient: `user${id}@example.com`,
  reason: 'new',
  status: 'sent',
  attempts: 1,
  error: null,
  next_attempt_at: null,
  sent_at: '2024-05-01T10:00:05.000Z',
  created_at: '2024-05-01T10:00:01.000Z',
  ...fields,
});

describe("the alert page's Notifications card", () => {
  it('lists who was emailed about the alert and what became of each email', async () => {
    const api = stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/2': { body: ALERT },
      'GET /projects/7/alert_notifications': {
        body: [
          record(4, { reason: 'resolved', status: 'failed', attempts: 8, error: '550 5.1.1 Mailbox unavailable', sent_at: null }),
          record(3, { status: 'pending', attempts: 2, error: 'connect ECONNREFUSED 10.0.0.5:587', sent_at: null }),
          record(2, { status: 'suppressed', attempts: 0, sent_at: null }),
          record(1, {}),
        ],
        headers: { 'X-Total': '4' },
      },
    });
    renderApp('/projects/7/alerts/2', { user: DEVELOPER });
    const card = (await screen.findByRole('heading', { name: 'Notifications' })).closest('.card') as HTMLElement;
    const rows = await within(card).findAllByRole('row');
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['user4@example.com', 'Resolved', 'Failed', 'After 8 attempts: 550 5.1.1 Mailbox unavailable'],
      ['user3@example.com', 'New alert', 'Pending', 'Attempt 2 refused: connect ECONNREFUSED 10.0.0.5:587'],
      ['user2@example.com', 'New alert', 'Suppressed', 'Over the hourly email limit of the recipient'],
      ['user1@example.com', 'New alert', 'Sent', expect.stringMatching(/ago|now/)],
    ]);
    expect(api.sent('GET /projects/7/alert_notifications')[0].query.get('alert_iid')).toBe('2');
  });

  it('says when no email was sent, and why one would be', async () => {
    stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/2': { body: ALERT },
      'GET /projects/7/alert_notifications': { body: [], headers: { 'X-Total': '0' } },
    });
    renderApp('/projects/7/alerts/2', { user: DEVELOPER });
    expect(await screen.findByText(/No emails about this alert\. Owners and maintainers with an email address/)).toBeInTheDocument();
  });
});
