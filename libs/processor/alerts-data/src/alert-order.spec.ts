import { alertOrderBy } from './alerts-query.repository';

describe('alertOrderBy', () => {
  it('is newest first without a sort, oldest first when asked', () => {
    expect(alertOrderBy(undefined)).toBe('a.iid DESC');
    expect(alertOrderBy(undefined, 'asc')).toBe('a.iid ASC');
  });

  it('puts the most severe first for desc (the enum is declared from critical down), ties by iid', () => {
    expect(alertOrderBy('severity', 'desc')).toBe('a.severity ASC, a.iid DESC');
    expect(alertOrderBy('severity', 'asc')).toBe('a.severity DESC, a.iid ASC');
    expect(alertOrderBy('severity')).toBe('a.severity ASC, a.iid DESC');
  });

  it('sorts times and counts in the order asked, ties by iid the same way', () => {
    expect(alertOrderBy('started_at', 'asc')).toBe('a.started_at ASC, a.iid ASC');
    expect(alertOrderBy('events', 'desc')).toBe('a.events DESC, a.iid DESC');
    expect(alertOrderBy('updated_at')).toBe('a.updated_at DESC, a.iid DESC');
  });
});
