import { activityOrigin, statusChangeEntry } from './activity';

describe('activity entries', () => {
  const at = new Date('2026-11-27T10:00:00.000Z');
  const alert = { id: '500', project_id: '1' };

  it('names a user as the actor of their change through the API, and nobody for the administrator token', () => {
    expect(activityOrigin({ type: 'user', user_id: 42 })).toEqual({ source: 'api', actorUserId: '42' });
    expect(activityOrigin({ type: 'user', user_id: null })).toEqual({ source: 'api', actorUserId: null });
  });

  it('gives the service as the actor of a payload, a heartbeat and an incident being closed', () => {
    expect(activityOrigin({ type: 'payload', integration_id: 3 })).toEqual({ source: 'payload', actorUserId: null });
    expect(activityOrigin({ type: 'heartbeat' })).toEqual({ source: 'heartbeat', actorUserId: null });
    expect(activityOrigin({ type: 'incident', incident_iid: 2 })).toEqual({ source: 'incident', actorUserId: null });
  });

  it('records a recovery payload resolving an alert with the integration that sent it', () => {
    expect(statusChangeEntry(alert, 'triggered', 'resolved', { type: 'payload', integration_id: 3 }, at)).toEqual({
      projectId: '1',
      subject: { alertId: '500' },
      kind: 'status_changed',
      source: 'payload',
      actorUserId: null,
      reason: null,
      details: { from: 'triggered', to: 'resolved', integration_id: 3 },
      at,
    });
  });

  it('records the incident whose closing resolved an alert', () => {
    expect(statusChangeEntry(alert, 'acknowledged', 'resolved', { type: 'incident', incident_iid: 4 }, at, 'Incident 4 was closed')).toMatchObject({
      source: 'incident',
      reason: 'Incident 4 was closed',
      details: { from: 'acknowledged', to: 'resolved', incident_iid: 4 },
    });
  });
});
