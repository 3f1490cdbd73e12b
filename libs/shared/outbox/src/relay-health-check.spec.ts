import { HealthProbeDownError } from '@alert-ingestion/http';
import { OutboxRelayStatus } from './outbox-relay';
import { relayHealth } from './relay-health-check';

const status: OutboxRelayStatus = { state: 'publishing', behind: false, backlogRows: 4, oldestAgeSeconds: 0.4, published: 10, deadLettered: 1, failure: null };

describe('relayHealth', () => {
  it('reports state and backlog while the relay keeps up', () => {
    expect(relayHealth(status)).toEqual({ state: 'publishing', backlog_rows: 4, oldest_age_seconds: 0, published: 10, dead_lettered: 1 });
    expect(relayHealth({ ...status, state: 'standby', backlogRows: null, oldestAgeSeconds: null })).toMatchObject({ state: 'standby', backlog_rows: null });
  });

  it('is down while the relay is behind, saying why', () => {
    const behind = { ...status, state: 'failing' as const, behind: true, backlogRows: 26_480, oldestAgeSeconds: 95.2, failure: 'broker down' };
    expect(() => relayHealth(behind)).toThrow(new HealthProbeDownError('26480 rows unpublished, the oldest for 95 s; publishing fails: broker down', {}));
    try {
      relayHealth(behind);
    } catch (error) {
      expect((error as HealthProbeDownError).details).toMatchObject({ backlog_rows: 26_480, failure: 'broker down' });
    }
  });
});
