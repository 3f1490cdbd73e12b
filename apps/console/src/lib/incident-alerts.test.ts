import { describe, expect, it } from 'vitest';
import { alertsClosingResolves, alertStateText, closingSummary, isOpenAlert, ownerChoice, ownerIdOf } from './incident-alerts';

describe("an incident's alerts", () => {
  const alerts = [
    { iid: 4, title: 'Disk full', status: 'triggered' as const },
    { iid: 2, title: 'Latency', status: 'acknowledged' as const },
    { iid: 1, title: 'Errors', status: 'resolved' as const },
    { iid: 3, title: 'Noise', status: 'ignored' as const },
  ];

  it('counts triggered and acknowledged alerts as open, and closing resolves exactly those, in order', () => {
    expect(alerts.map((alert) => isOpenAlert(alert.status))).toEqual([true, true, false, false]);
    expect(alertsClosingResolves(alerts).map((alert) => alert.iid)).toEqual([4, 2]);
  });

  it('says a triggered alert is still firing', () => {
    expect(alertStateText('triggered')).toBe('Triggered · firing');
    expect(alertStateText('resolved')).toBe('Resolved');
  });

  it('says what closing resolves, or that it resolves none', () => {
    expect(closingSummary(0)).toBe('No alert of this incident is open: closing it resolves none.');
    expect(closingSummary(1)).toBe('Closing it resolves its open alert:');
    expect(closingSummary(2)).toBe('Closing it resolves its 2 open alerts:');
  });

  it("maps the owner select's value to a user id or nobody and back", () => {
    expect(ownerChoice(null)).toBe('');
    expect(ownerChoice(14)).toBe('14');
    expect(ownerIdOf('')).toBeNull();
    expect(ownerIdOf('14')).toBe(14);
  });
});
