import { heartbeatFingerprintSha256, StoredAlert } from '@alert-ingestion/alerts-domain';
import { storedAlertFixture } from '@alert-ingestion/alerts-domain/testing';
import { activityActorIds, activityEntryView, derivedAlertEntries, noteEntry, StoredActivityEntry } from './timeline';

const earlier = new Date('2026-11-27T09:00:00.000Z');

function alert(iid: number, overrides: Partial<StoredAlert> = {}): StoredAlert {
  return storedAlertFixture({ id: String(500 + iid), iid, title: `Alert ${iid}`, started_at: earlier, created_at: earlier, updated_at: earlier, ...overrides });
}

describe('the activity timeline as read', () => {
  const at = new Date('2026-11-27T10:00:00.000Z');

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

describe('derivedAlertEntries', () => {
  it('gives an alert its creation by a payload, and no grouped entry while nothing was grouped', () => {
    expect(derivedAlertEntries(alert(1))).toEqual([
      {
        projectId: '1',
        subject: { alertId: '501' },
        kind: 'alert_created',
        source: 'payload',
        actorUserId: null,
        reason: null,
        details: { integration_id: 9 },
        at: earlier,
      },
    ]);
  });

  it('gives one events_grouped entry at the first grouped payload, with the count and the latest', () => {
    const first = new Date('2026-11-27T09:05:00.000Z');
    const last = new Date('2026-11-27T09:55:00.000Z');
    expect(derivedAlertEntries(alert(1, { events: 40, first_grouped_at: first, last_grouped_at: last }))[1]).toEqual({
      projectId: '1',
      subject: { alertId: '501' },
      kind: 'events_grouped',
      source: 'payload',
      actorUserId: null,
      reason: null,
      details: { count: 39, first_at: first.toISOString(), last_at: last.toISOString() },
      at: first,
    });
  });

  it('says a missed heartbeat created a heartbeat alert', () => {
    expect(derivedAlertEntries(alert(1, { fingerprint_sha256: heartbeatFingerprintSha256('9') }))[0]).toMatchObject({ kind: 'alert_created', source: 'heartbeat' });
  });
});
