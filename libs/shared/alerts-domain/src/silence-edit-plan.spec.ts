import { planSilenceEdit, SilenceEdit } from './silence-edit-plan';
import { StoredSilence } from './silence-matchers';

const HOUR = 3_600_000;
const now = new Date('2026-11-26T12:00:00.000Z');
const at = (hours: number) => new Date(now.getTime() + hours * HOUR);
const matchers = [{ field: 'service', operator: '=', value: 'checkout' }];

function stored(overrides: Partial<StoredSilence> = {}): StoredSilence {
  return {
    id: '3',
    project_id: '1',
    matchers: [{ field: 'service', operator: '=', value: 'checkout' }],
    starts_at: at(-1),
    ends_at: at(1),
    comment: 'disks',
    created_by: { id: '2', username: 'maria' },
    created_at: at(-2),
    updated_at: at(-2),
    ...overrides,
  };
}

const create = (overrides: Partial<Extract<SilenceEdit, { kind: 'create' }>> = {}): SilenceEdit => ({
  kind: 'create',
  projectId: '1',
  matchers,
  ends_at: at(2).toISOString(),
  comment: 'disks',
  createdBy: null,
  ...overrides,
});
const update = (overrides: Partial<Extract<SilenceEdit, { kind: 'update' }>> = {}): SilenceEdit => ({ kind: 'update', projectId: '1', id: '3', ...overrides });
const expire: SilenceEdit = { kind: 'expire', projectId: '1', id: '3' };

const invalid = (message: string | RegExp, field?: string) => ({
  refused: { kind: 'invalid', code: 'validation_failed', message: typeof message === 'string' ? message : expect.stringMatching(message), ...(field && { field }) },
});

describe('planSilenceEdit: create', () => {
  it('inserts the silence, starting now when no start (or one in the past) is given', () => {
    const insert = { project_id: '1', matchers, starts_at: now, ends_at: at(2), comment: 'disks', created_by: null, created_at: now };
    expect(planSilenceEdit(undefined, create(), now)).toEqual({ changes: { insert }, events: [] });
    expect(planSilenceEdit(undefined, create({ starts_at: at(-5).toISOString() }), now)).toEqual({ changes: { insert }, events: [] });
  });

  it('keeps a later start (pending)', () => {
    expect(planSilenceEdit(undefined, create({ starts_at: at(1).toISOString() }), now)).toMatchObject({ changes: { insert: { starts_at: at(1) } } });
  });

  it.each([
    ['no matchers', create({ matchers: [] }), invalid(/at least one matcher/, 'matchers')],
    ['a bad regex, at its value', create({ matchers: [matchers[0], { field: 'title', operator: '=~', value: '(disk' }] }), invalid(/^matchers\[1\]: This is not a valid regular expression \(RE2 syntax\): a \( is not closed\.$/, 'matchers[1].value')],
    ['an unknown field, at its field', create({ matchers: [{ field: 'status', operator: '=', value: 'x' }] }), invalid(/field must be one of/, 'matchers[0].field')],
    ['an end in the past', create({ ends_at: at(-1).toISOString() }), invalid('ends_at must be in the future.', 'ends_at')],
    ['an end before the start', create({ starts_at: at(3).toISOString() }), invalid('ends_at must be after starts_at.', 'ends_at')],
    ['a time that is no time', create({ starts_at: 'soon' }), invalid('starts_at must be an ISO 8601 time.', 'starts_at')],
  ])('refuses %s (400)', (_name, edit, refusal) => {
    expect(planSilenceEdit(undefined, edit, now)).toEqual(refusal);
  });
});

describe('planSilenceEdit: update', () => {
  it('writes only what is asked, with updated_at', () => {
    expect(planSilenceEdit(stored(), update({ comment: 'longer', ends_at: at(5).toISOString() }), now)).toEqual({
      changes: { update: { id: '3', comment: 'longer', ends_at: at(5), updated_at: now } },
      events: [],
    });
    expect(planSilenceEdit(stored(), update({ matchers: [{ path: ['labels', 'team'], operator: '=~', value: 'stor.*' }] }), now)).toEqual({
      changes: { update: { id: '3', matchers: [{ path: ['labels', 'team'], operator: '=~', value: 'stor.*' }], updated_at: now } },
      events: [],
    });
  });

  it('changes nothing when nothing is asked', () => {
    expect(planSilenceEdit(stored(), update(), now)).toEqual({ changes: null, events: [] });
  });

  it('refuses a silence the project does not have (404)', () => {
    expect(planSilenceEdit(undefined, update({ comment: 'x' }), now)).toEqual({
      refused: { kind: 'not_found', code: 'silence_not_found', message: 'Silence 3 not found.' },
    });
  });

  it('refuses an expired silence (409 silence_expired)', () => {
    expect(planSilenceEdit(stored({ ends_at: now }), update({ comment: 'x' }), now)).toEqual({
      refused: { kind: 'conflict', code: 'silence_expired', message: 'Silence 3 has expired; create a new one.' },
    });
  });

  it('checks the request before the stored silence: a bad request is a 400 whatever the silence', () => {
    const endNow = update({ ends_at: now.toISOString() });
    const refusal = invalid('ends_at must be in the future; to end a silence now, expire it.', 'ends_at');
    expect(planSilenceEdit(stored(), endNow, now)).toEqual(refusal);
    expect(planSilenceEdit(undefined, endNow, now)).toEqual(refusal);
    expect(planSilenceEdit(stored({ ends_at: at(-1) }), update({ matchers: [] }), now)).toEqual(invalid(/at least one matcher/, 'matchers'));
  });

  it('refuses an end before the stored start of a pending silence (400 at ends_at)', () => {
    expect(planSilenceEdit(stored({ starts_at: at(3), ends_at: at(4) }), update({ ends_at: at(2).toISOString() }), now)).toEqual(
      invalid('ends_at must be after starts_at.', 'ends_at'),
    );
  });
});

describe('planSilenceEdit: expire', () => {
  it('ends an active silence now', () => {
    expect(planSilenceEdit(stored(), expire, now)).toEqual({ changes: { update: { id: '3', ends_at: now, updated_at: now } }, events: [] });
  });

  it('ends a pending silence where it starts, now', () => {
    expect(planSilenceEdit(stored({ starts_at: at(1), ends_at: at(2) }), expire, now)).toEqual({
      changes: { update: { id: '3', ends_at: now, starts_at: now, updated_at: now } },
      events: [],
    });
  });

  it('leaves an expired silence as it is', () => {
    expect(planSilenceEdit(stored({ ends_at: at(-1) }), expire, now)).toEqual({ changes: null, events: [] });
  });

  it('refuses a silence the project does not have (404)', () => {
    expect(planSilenceEdit(undefined, expire, now)).toMatchObject({ refused: { kind: 'not_found', code: 'silence_not_found' } });
  });
});
