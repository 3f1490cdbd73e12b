import { ALERT_STATUSES } from '@alert-ingestion/contracts';
import { statusChange } from './alert-status';

const now = new Date('2024-06-01T00:00:00Z');
const earlier = new Date('2024-05-01T00:00:00Z');

describe('statusChange', () => {
  it.each(ALERT_STATUSES.map((status) => [status]))('changes nothing when %s is asked again', (status) => {
    expect(statusChange(status, earlier, status, now)).toEqual({ changed: false });
  });

  it.each([['triggered'], ['acknowledged'], ['ignored']] as const)('resolving from %s publishes alert.resolved and sets ended_at', (from) => {
    expect(statusChange(from, null, 'resolved', now)).toEqual({ changed: true, status: 'resolved', endedAt: now, eventType: 'alert.resolved' });
  });

  it('reopening a resolved alert publishes alert.status_changed and clears ended_at', () => {
    expect(statusChange('resolved', earlier, 'triggered', now)).toEqual({
      changed: true,
      status: 'triggered',
      endedAt: null,
      eventType: 'alert.status_changed',
    });
  });

  it('other changes publish alert.status_changed and keep ended_at', () => {
    expect(statusChange('triggered', null, 'acknowledged', now)).toEqual({
      changed: true,
      status: 'acknowledged',
      endedAt: null,
      eventType: 'alert.status_changed',
    });
    expect(statusChange('acknowledged', null, 'ignored', now)).toMatchObject({ status: 'ignored', eventType: 'alert.status_changed' });
  });
});
