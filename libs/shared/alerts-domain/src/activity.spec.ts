import { activityActorIds, activityEntryView, activityOrigin, noteEntry, statusChangeEntry, StoredActivityEntry } from './activity';

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

  it('answers an entry with its actor named, the service when no user did it', () => {
    const stored: StoredActivityEntry = { id: '9', kind: 'note', actor_user_id: '42', source: 'api', reason: null, details: { body: '**x**' }, created_at: at };
    const usernames = new Map([['42', 'alice']]);
    expect(activityEntryView(stored, usernames)).toEqual({
      id: 9,
      kind: 'note',
      created_at: '2026-11-27T10:00:00.000Z',
      actor: { type: 'user', id: 42, username: 'alice' },
      source: 'api',
      reason: null,
      details: { body: '**x**' },
    });
    expect(activityEntryView({ ...stored, actor_user_id: '43' }, usernames).actor).toEqual({ type: 'user', id: 43, username: null });
    expect(activityEntryView({ ...stored, actor_user_id: null, source: 'payload' }, usernames).actor).toEqual({ type: 'service' });
  });

  it('names the integration whose payload created or resolved the alert, while it exists', () => {
    const created: StoredActivityEntry = { id: '0', kind: 'alert_created', actor_user_id: null, source: 'payload', reason: null, details: { integration_id: 3 }, created_at: at };
    const names = (id: string) => (id === '3' ? 'Prometheus production' : undefined);
    expect(activityEntryView(created, new Map(), names).details).toEqual({ integration_id: 3, integration_name: 'Prometheus production' });
    expect(activityEntryView({ ...created, details: { integration_id: 4 } }, new Map(), names).details).toEqual({ integration_id: 4 });
    expect(activityEntryView({ ...created, kind: 'note', details: { body: 'x' } }, new Map(), names).details).toEqual({ body: 'x' });
  });

  it('names each actor of a page once, for one lookup', () => {
    const entry = (id: string, actor: string | null): StoredActivityEntry => ({ id, kind: 'note', actor_user_id: actor, source: 'api', reason: null, details: {}, created_at: at });
    expect(activityActorIds([entry('1', '42'), entry('2', null), entry('3', '42'), entry('4', '7')])).toEqual(['42', '7']);
  });

  it('records a note with its author, on an alert or an incident', () => {
    expect(noteEntry('1', { incidentId: '3' }, 'Rolled back', { type: 'user', user_id: 42 }, at)).toEqual({
      projectId: '1',
      subject: { incidentId: '3' },
      kind: 'note',
      source: 'api',
      actorUserId: '42',
      reason: null,
      details: { body: 'Rolled back' },
      at,
    });
  });
});
