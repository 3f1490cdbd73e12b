import { planPagingEdit, PagingState, userPageMethods } from './contact-methods';
import { isInternalAddress } from './webhook-address';

const state: PagingState = {
  userId: '7',
  statusNotices: false,
  methods: [
    { id: '1', userId: '7', type: 'email', name: 'Work', address: 'ada@example.com' },
    { id: '2', userId: '7', type: 'webhook', name: 'Phone', address: 'https://phone.example.com/' },
  ],
  rules: [],
};

describe('contact methods and notification rules', () => {
  it('uses every contact method at once until the user makes rules, then only their rules, in order', () => {
    expect(userPageMethods(state).map(({ method, afterMinutes }) => [method.id, afterMinutes])).toEqual([
      ['1', 0],
      ['2', 0],
    ]);
    const ruled = { ...state, rules: [{ id: '5', contactMethodId: '2', afterMinutes: 10 }, { id: '4', contactMethodId: '1', afterMinutes: 0 }] };
    expect(userPageMethods(ruled).map(({ method, afterMinutes }) => [method.id, afterMinutes])).toEqual([
      ['1', 0],
      ['2', 10],
    ]);
    expect(userPageMethods(undefined)).toEqual([]);
  });

  it('takes an email address lower-case and a webhook URL with its secret', () => {
    expect(planPagingEdit(state, { kind: 'create_method', type: 'email', name: ' Home ', address: 'Ada@Home.example', secret: 's' })).toEqual({
      changes: { methodInsert: { userId: '7', type: 'email', name: 'Home', address: 'ada@home.example', secret: null } },
      events: [],
    });
    expect(planPagingEdit(state, { kind: 'create_method', type: 'webhook', name: 'Bot', address: 'https://bot.example.com/page', secret: 's' })).toMatchObject({
      changes: { methodInsert: { type: 'webhook', address: 'https://bot.example.com/page', secret: 's' } },
    });
  });

  it.each([
    [{ type: 'sms', name: 'x', address: 'x' }, 'type'],
    [{ type: 'email', name: '', address: 'a@b.example' }, 'name'],
    [{ type: 'email', name: 'x', address: 'not an address' }, 'address'],
    [{ type: 'webhook', name: 'x', address: 'https://user:pw@example.com/' }, 'address'],
  ])('refuses a bad contact method (%j)', (request, field) => {
    expect(planPagingEdit(state, { kind: 'create_method', ...request, secret: 's' })).toMatchObject({ refused: { kind: 'invalid', field } });
  });

  it('refuses a second method of the same name or address', () => {
    expect(planPagingEdit(state, { kind: 'create_method', type: 'email', name: 'Work', address: 'other@example.com', secret: 's' })).toMatchObject({ refused: { code: 'contact_method_name_taken' } });
    expect(planPagingEdit(state, { kind: 'create_method', type: 'email', name: 'Other', address: 'ADA@example.com', secret: 's' })).toMatchObject({ refused: { code: 'contact_method_exists' } });
  });

  it('makes rules of the user own methods only, each once', () => {
    expect(planPagingEdit(state, { kind: 'create_rule', contactMethodId: 2, afterMinutes: 5 })).toMatchObject({ changes: { ruleInsert: { contactMethodId: '2', afterMinutes: 5 } } });
    expect(planPagingEdit(state, { kind: 'create_rule', contactMethodId: 9, afterMinutes: 5 })).toMatchObject({ refused: { field: 'contact_method_id' } });
    expect(planPagingEdit(state, { kind: 'create_rule', contactMethodId: 1, afterMinutes: -1 })).toMatchObject({ refused: { field: 'after_minutes' } });
    expect(planPagingEdit({ ...state, rules: [{ id: '1', contactMethodId: '1', afterMinutes: 0 }] }, { kind: 'create_rule', contactMethodId: '1', afterMinutes: 0 })).toMatchObject({
      refused: { code: 'notification_rule_exists' },
    });
    expect(planPagingEdit(state, { kind: 'delete_rule', id: '3' })).toMatchObject({ refused: { kind: 'not_found' } });
  });

  it('changes the notice setting only when it differs', () => {
    expect(planPagingEdit(state, { kind: 'settings', statusNotices: false })).toEqual({ changes: null, events: [] });
    expect(planPagingEdit(state, { kind: 'settings', statusNotices: true })).toMatchObject({ changes: { statusNotices: true } });
  });
});

describe('webhook addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', true],
    ['93.184.216.34', false],
    ['2606:2800:220:1:248:1893:25c8:1946', false],
    ['not an address', true],
  ])('%s is internal: %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });
});
