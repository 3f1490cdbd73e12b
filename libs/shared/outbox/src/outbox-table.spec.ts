import { OUTBOX_ADVISORY_LOCKS, outboxDocuments, outboxStatements, OutboxTable, outboxTable } from './outbox-table';

const table = { name: 'thing_outbox', channel: 'thing_outbox', writeLock: 11, leaderLock: 12 };

describe('outboxDocuments', () => {
  it('lists the keys, and the values as JSON, not as strings, with tombstones as null, in the same order', () => {
    const documents = outboxDocuments([
      { key: '1:2', value: '{"type":"alert.created","n":1}' },
      { key: 'k"ey', value: null },
      { key: '3', value: '{"payload":"a\\u0000b"}' },
    ]);
    expect(JSON.parse(documents.keys)).toEqual(['1:2', 'k"ey', '3']);
    expect(JSON.parse(documents.values)).toEqual([{ type: 'alert.created', n: 1 }, null, { payload: 'a\u0000b' }]);
    // The value's text as it was written: its escapes reach the json column untouched.
    expect(documents.values).toContain('"a\\u0000b"');
  });
});

describe('outboxStatements', () => {
  it('takes the write lock, notifies and inserts in the given order', () => {
    const [lock, insert] = outboxStatements(table, [{ key: 'a', value: '1' }]);
    expect(lock).toBe("SELECT true AS locked FROM pg_advisory_xact_lock(11), pg_notify('thing_outbox', '')");
    expect(insert).toContain('INSERT INTO thing_outbox (key, value)');
    expect(insert).toContain('json_array_elements_text($json$["a"]$json$::json)');
    expect(insert).toContain('json_array_elements($json$[1]$json$::json)');
    expect(insert).toContain('ORDER BY k.position');
  });

  it('writes nothing for no records', () => {
    expect(outboxStatements(table, [])).toEqual([]);
  });
});

describe('OUTBOX_ADVISORY_LOCKS', () => {
  it('gives every outbox locks of its own', () => {
    const locks = Object.values(OUTBOX_ADVISORY_LOCKS).flatMap(({ writeLock, leaderLock }) => [writeLock, leaderLock]);
    expect(new Set(locks).size).toBe(locks.length);
  });

  it('gives every sharded outbox two-key lock classes of its own: its shard leaders and the class after it (its live instances)', () => {
    const tables: Array<Omit<OutboxTable, 'name' | 'channel'>> = Object.values(OUTBOX_ADVISORY_LOCKS);
    const classes = tables.flatMap(({ sharding }) => (sharding ? [sharding.lockClass, sharding.lockClass + 1] : []));
    expect(classes).toContain(OUTBOX_ADVISORY_LOCKS.alert_event_outbox.sharding.lockClass);
    expect(new Set(classes).size).toBe(classes.length);
    // The first key of pg_advisory_lock(int, int).
    for (const lockClass of classes) expect(Number.isInteger(lockClass) && lockClass > 0 && lockClass <= 2 ** 31 - 1).toBe(true);
  });

  it('names a sharded table with its sharding', () => {
    expect(outboxTable('alert_event_outbox').sharding).toEqual({ keyHashColumn: 'key_hash', lockClass: 731_120_240 });
    expect(outboxTable('incident_event_outbox').sharding).toBeUndefined();
  });

  it('names a table, its channel and its locks', () => {
    expect(outboxTable('incident_event_outbox')).toEqual({ name: 'incident_event_outbox', channel: 'incident_event_outbox', ...OUTBOX_ADVISORY_LOCKS.incident_event_outbox });
  });
});
