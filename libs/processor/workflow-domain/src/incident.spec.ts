import { incidentCreatedRecords, incidentFromAlert, incidentView } from './incident';
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
