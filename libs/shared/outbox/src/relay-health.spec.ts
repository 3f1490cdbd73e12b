import { RelayHealth } from './relay-health';

const options = { initialRetryMs: 1_000, maxRetryMs: 30_000, stallAfterMs: 60_000 };

describe('RelayHealth', () => {
  it('logs a failure once per reason, backs off exponentially up to the maximum, and logs the recovery', () => {
    const health = new RelayHealth(options);
    health.succeeded(0);
    const first = health.failed('broker down', 1_000);
    expect(first).toEqual({ delayMs: 1_000, line: { level: 'error', message: expect.stringContaining('broker down') } });
    expect(health.state).toBe('failing');
    const delays = [2_000, 4_000, 8_000, 16_000, 30_000, 30_000];
    for (const delay of delays) expect(health.failed('broker down', 2_000)).toEqual({ delayMs: delay, line: undefined });
    expect(health.failed('topic deleted', 3_000).line?.message).toContain('topic deleted');
    expect(health.failure).toBe('topic deleted');
    expect(health.succeeded(46_000)).toEqual({ level: 'log', message: 'recovered after 45 s and 8 failed attempts' });
    expect(health.state).toBe('publishing');
    expect(health.succeeded(47_000)).toBeUndefined();
    expect(health.failed('again', 48_000).delayMs).toBe(1_000);
  });

  it('says when the relay falls behind and when it catches up, once each', () => {
    const health = new RelayHealth(options);
    expect(health.measured({ rows: 10, oldestAgeMs: 500 })).toBeUndefined();
    expect(health.measured({ rows: 5_000, oldestAgeMs: 61_000 })).toEqual({ level: 'warn', message: 'behind: 5000 rows unpublished, the oldest for 61 s' });
    expect(health.isBehind).toBe(true);
    expect(health.measured({ rows: 6_000, oldestAgeMs: 70_000 })).toBeUndefined();
    expect(health.measured({ rows: 0, oldestAgeMs: null })).toEqual({ level: 'log', message: 'caught up: 0 rows unpublished' });
    expect(health.backlog).toEqual({ rows: 0, oldestAgeMs: null });
  });

  it('forgets the backlog in standby', () => {
    const health = new RelayHealth(options);
    health.measured({ rows: 3, oldestAgeMs: 100 });
    health.standby();
    expect(health.state).toBe('standby');
    expect(health.backlog).toBeUndefined();
  });
});
