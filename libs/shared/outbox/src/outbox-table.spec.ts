import { outboxDocument, outboxStatements } from './outbox-table';

const table = { name: 'thing_outbox', channel: 'thing_outbox', writeLock: 11, leaderLock: 12 };

describe('outboxDocument', () => {
  it('embeds values as JSON, not as strings, and tombstones as null', () => {
    const document = outboxDocument([
      { key: '1:2', value: '{"type":"alert.created","n":1}' },
      { key: 'k"ey', value: null },
    ]);
    expect(JSON.parse(document)).toEqual([
      { key: '1:2', value: { type: 'alert.created', n: 1 } },
      { key: 'k"ey', value: null },
    ]);
  });
});

describe('outboxStatements', () => {
  it('takes the write lock, notifies and inserts in the given order', () => {
    const [lock, insert] = outboxStatements(table, [{ key: 'a', value: '1' }]);
    expect(lock).toBe("SELECT true AS locked FROM pg_advisory_xact_lock(11), pg_notify('thing_outbox', '')");
    expect(insert).toContain('INSERT INTO thing_outbox (key, value)');
    expect(insert).toContain('$json$[{"key":"a","value":1}]$json$::json');
    expect(insert).toContain('ORDER BY r.position');
  });

  it('writes nothing for no records', () => {
    expect(outboxStatements(table, [])).toEqual([]);
  });
});
