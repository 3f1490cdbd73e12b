import { OUTBOX_RECLAIM, reclaimDue, RETAINED_TABLE_RECLAIM, rowCountsStatement, vacuumStatement } from './table-reclaim';

describe('reclaimDue', () => {
  it('vacuums an outbox once a few thousand rows are dead and few are live', () => {
    expect(reclaimDue({ dead: 1_999, live: 0 }, OUTBOX_RECLAIM)).toBe(false);
    expect(reclaimDue({ dead: 2_000, live: 0 }, OUTBOX_RECLAIM)).toBe(true);
    expect(reclaimDue({ dead: 92_575, live: 12 }, OUTBOX_RECLAIM)).toBe(true);
  });

  it('leaves a large table whose dead rows are a small share of its live ones', () => {
    expect(reclaimDue({ dead: 50_000, live: 1_000_000 }, RETAINED_TABLE_RECLAIM)).toBe(false);
    expect(reclaimDue({ dead: 200_000, live: 1_000_000 }, RETAINED_TABLE_RECLAIM)).toBe(true);
    expect(reclaimDue({ dead: 9_999, live: 0 }, RETAINED_TABLE_RECLAIM)).toBe(false);
  });
});

describe('the reclaim statements', () => {
  it('name the table', () => {
    expect(vacuumStatement('alert_event_outbox')).toBe('VACUUM (SKIP_LOCKED, PARALLEL 0) alert_event_outbox');
    expect(vacuumStatement('alert_event_outbox', { truncate: false })).toBe('VACUUM (SKIP_LOCKED, PARALLEL 0, TRUNCATE false) alert_event_outbox');
    expect(rowCountsStatement('alert_deliveries')).toContain("'alert_deliveries'::regclass");
  });

  it('refuse what is not a plain table name', () => {
    expect(() => vacuumStatement('alerts; DROP TABLE alerts')).toThrow('Not a table name');
  });
});
