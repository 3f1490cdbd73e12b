import { incidentAlertsView, incidentCreatedRecords, incidentFromAlert, incidentView, StoredIncidentAlert } from './incident';
import { earlier, incidentAlert as alert, now, storedIncidentFixture as incident } from './incident.testing';

describe('incidentView', () => {
  it('names a user creator by the username given, and an alert creator by its iid', () => {
    expect(incidentView(incident(), new Map([['12', 'maria']])).created_by).toEqual({ type: 'user', id: 12, username: 'maria' });
    expect(incidentView(incident()).created_by).toEqual({ type: 'user', id: 12, username: null });
    expect(incidentView(incident({ created_by_alert_id: '500', created_by_alert_iid: 7 })).created_by).toEqual({ type: 'alert', alert_iid: 7 });
  });

  it('lists linked alerts lowest first, times as ISO text, and its owner or nobody', () => {
    const view = incidentView(incident({ alert_iids: [9, 2, 7], closed_at: now, owner: { id: '14', username: 'sam' } }));
    expect(view).toMatchObject({ alert_iids: [2, 7, 9], closed_at: now.toISOString(), created_at: earlier.toISOString(), owner: { id: 14, username: 'sam' } });
    expect(incidentView(incident()).owner).toBeNull();
  });
});

describe('incidentFromAlert', () => {
  it("copies the alert's title and severity, and its fields and payload into the description with a reference back", () => {
    const fields = incidentFromAlert(alert());
    expect(fields.title).toBe('Disk full');
    expect(fields.severity).toBe('high');
    expect(fields.description).toContain('Opened from alert #7.');
    expect(fields.description).toContain('db-1 has no space left');
    expect(fields.description).toContain('- **Hosts**: db-1, db-2');
    expect(fields.description).toContain('- **Monitoring tool**: Prometheus');
    expect(fields.description).toContain('"team": "storage"');
    expect(fields.description).not.toContain('Environment');
  });

  it('truncates a huge payload and keeps code fences in it from closing the block', () => {
    const fields = incidentFromAlert(alert({ payload: { log: 'x'.repeat(50_000), fence: '```' } }));
    expect((fields.description ?? '').length).toBeLessThan(21_000);
    expect(fields.description).toContain('(truncated; the whole payload is on alert #7)');
    expect((fields.description ?? '').match(/```/g)?.length).toBe(2);
  });
});

describe('incidentCreatedRecords', () => {
  it('notes the creation (with its alert) on the incident, the link on the alert, and publishes incident.created', () => {
    const created = incident({ created_by_alert_id: '500', created_by_alert_iid: 7 });
    const { entries, events } = incidentCreatedRecords(created, alert(), { type: 'service', source: 'settings' }, now);
    expect(entries.map((entry) => [entry.kind, entry.subject, entry.source, entry.actorUserId])).toEqual([
      ['incident_created', { incidentId: '30' }, 'settings', null],
      ['incident_linked', { alertId: '500' }, 'settings', null],
    ]);
    expect(entries[0].details).toEqual({ alert_iid: 7 });
    expect(events).toEqual([{ projectId: '1', iid: 3, value: expect.objectContaining({ type: 'incident.created', project_id: 1, occurred_at: now.toISOString() }) }]);
  });
});

describe('incidentAlertsView', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 12, minute));
  const linked = (iid: number, status: StoredIncidentAlert['status'], minute: number): StoredIncidentAlert => ({
    iid,
    title: `Alert ${iid}`,
    severity: 'high',
    status,
    events: 1,
    started_at: at(0),
    ended_at: status === 'resolved' ? at(minute) : null,
    last_event_at: at(minute),
  });

  it('lists open alerts first (triggered, then acknowledged), each group newest event first', () => {
    const view = incidentAlertsView([linked(1, 'resolved', 50), linked(2, 'acknowledged', 10), linked(3, 'triggered', 5), linked(4, 'triggered', 30), linked(5, 'ignored', 59)]);
    expect(view.map((alert) => alert.iid)).toEqual([4, 3, 2, 1, 5]);
  });

  it('gives times as ISO text, and no end to an alert still open', () => {
    const [firing, resolved] = incidentAlertsView([linked(2, 'resolved', 40), linked(1, 'triggered', 20)]);
    expect(firing).toEqual({ iid: 1, title: 'Alert 1', severity: 'high', status: 'triggered', events: 1, started_at: at(0).toISOString(), ended_at: null, last_event_at: at(20).toISOString() });
    expect(resolved).toMatchObject({ iid: 2, ended_at: at(40).toISOString(), last_event_at: at(40).toISOString() });
  });
});
