import { OutboxRelayStatus } from './outbox-relay';
import { combinedStatus } from './sharded-outbox-relay';

function status(overrides: Partial<OutboxRelayStatus>): OutboxRelayStatus {
  return { state: 'standby', behind: false, backlogRows: null, oldestAgeSeconds: null, published: 0, deadLettered: 0, failure: null, ...overrides };
}

describe('combinedStatus', () => {
  it('is standby with no backlog while the instance leads no shard, its counts summed', () => {
    expect(combinedStatus([status({ published: 3 }), status({ published: 4, deadLettered: 1 })])).toEqual(status({ published: 7, deadLettered: 1 }));
  });

  it('sums the backlog of the shards it leads and keeps the oldest age', () => {
    const combined = combinedStatus([
      status({ state: 'publishing', backlogRows: 5, oldestAgeSeconds: 1.5 }),
      status({}),
      status({ state: 'publishing', backlogRows: 7, oldestAgeSeconds: 4 }),
    ]);
    expect(combined).toMatchObject({ state: 'publishing', behind: false, backlogRows: 12, oldestAgeSeconds: 4 });
  });

  it('is failing with the reason while one shard fails, and behind while one shard is behind', () => {
    const combined = combinedStatus([
      status({ state: 'publishing', backlogRows: 0, oldestAgeSeconds: null }),
      status({ state: 'failing', behind: true, backlogRows: 900, oldestAgeSeconds: 75, failure: 'the broker is unavailable' }),
    ]);
    expect(combined).toMatchObject({ state: 'failing', behind: true, backlogRows: 900, oldestAgeSeconds: 75, failure: 'the broker is unavailable' });
  });
});
