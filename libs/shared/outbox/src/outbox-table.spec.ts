import { OUTBOX_ADVISORY_LOCKS, outboxDocuments, outboxRecord, outboxStatements, OutboxTable, outboxTable } from './outbox-table';

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
    expect(JSON.parse(documents.headers)).toEqual([null, null, null]);
    // The value's text as it was written: its escapes reach the json column untouched.
    expect(documents.values).toContain('"a\\u0000b"');
  });
});

describe('outboxRecord', () => {
  it('encodes the value and gives it the headers its topic decides', () => {
    const topic = { encode: (value: { n: number }) => JSON.stringify(value), headers: (value: { n: number }) => ({ ce_id: `id-${value.n}` }) };
    expect(outboxRecord(topic, 'k', { n: 1 })).toEqual({ key: 'k', value: '{"n":1}', headers: { ce_id: 'id-1' } });
  });
});

describe('outboxStatements', () => {
  it('takes the write lock, notifies and inserts in the given order', () => {
    const [lock, insert] = outboxStatements(table, [{ key: 'a', value: '1' }, { key: 'b', value: '2', headers: { ce_id: 'x' } }]);
    expect(lock).toBe("SELECT true AS locked FROM pg_advisory_xact_lock(11), pg_notify('thing_outbox', '')");
    expect(insert).toContain('INSERT INTO thing_outbox (key, value, headers)');
    expect(insert).toContain('json_array_elements_text($json$["a","b"]$json$::json)');
    expect(insert).toContain('json_array_elements($json$[1,2]$json$::json)');
    expect(insert).toContain('json_array_elements($json$[null,{"ce_id":"x"}]$json$::json)');
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
