import { GroupingItem, openAlertKey, planGrouping } from './alert-grouping';

const fire = (fingerprint: string | null, projectId = '1'): GroupingItem => ({ projectId, fingerprintSha256: fingerprint, recovery: false });
const recover = (fingerprint: string | null, projectId = '1'): GroupingItem => ({ projectId, fingerprintSha256: fingerprint, recovery: true });
const none = new Map<string, string>();

describe('planGrouping (spec 3, CONTRACT.md alert semantics)', () => {
  it('creates an alert for a payload with no matching not-resolved alert', () => {
    expect(planGrouping([fire('f')], none)).toEqual({
      alerts: [{ existingAlertId: null, projectId: '1', fingerprintSha256: 'f', items: [0], operations: ['create'], resolvedByItem: null }],
      itemAlert: [0],
    });
  });

  it('groups into a not-resolved alert that exists: events increase, nothing is created', () => {
    const plan = planGrouping([fire('f')], new Map([[openAlertKey('1', 'f'), '77']]));
    expect(plan.alerts).toEqual([
      { existingAlertId: '77', projectId: '1', fingerprintSha256: 'f', items: [0], operations: ['group'], resolvedByItem: null },
    ]);
    expect(plan.itemAlert).toEqual([0]);
  });

  it('groups identical payloads of one batch into the first one', () => {
    const plan = planGrouping(Array.from({ length: 40 }, () => fire('f')), none);
    expect(plan.alerts).toHaveLength(1);
    expect(plan.alerts[0].operations).toEqual(['create', ...Array<string>(39).fill('group')]);
    expect(plan.itemAlert).toEqual(Array(40).fill(0));
  });

  it('never groups payloads without a fingerprint', () => {
    const plan = planGrouping([fire(null), fire(null)], none);
    expect(plan.alerts.map((alert) => alert.operations)).toEqual([['create'], ['create']]);
    expect(plan.itemAlert).toEqual([0, 1]);
  });

  it('resolves the matching not-resolved alert with a recovery payload, without counting an event', () => {
    const plan = planGrouping([recover('f')], new Map([[openAlertKey('1', 'f'), '77']]));
    expect(plan.alerts).toEqual([
      { existingAlertId: '77', projectId: '1', fingerprintSha256: 'f', items: [0], operations: ['resolve'], resolvedByItem: 0 },
    ]);
    expect(plan.itemAlert).toEqual([0]);
  });

  it('gives a recovery payload without a match no effect', () => {
    expect(planGrouping([recover('f')], none)).toEqual({ alerts: [], itemAlert: [null] });
    expect(planGrouping([recover(null)], none)).toEqual({ alerts: [], itemAlert: [null] });
  });

  it('creates a new alert for an identical payload after a resolution', () => {
    const plan = planGrouping([fire('f'), recover('f'), fire('f'), fire('f')], none);
    expect(plan.alerts.map((alert) => [alert.existingAlertId, alert.operations, alert.resolvedByItem])).toEqual([
      [null, ['create', 'resolve'], 1],
      [null, ['create', 'group'], null],
    ]);
    expect(plan.itemAlert).toEqual([0, 0, 1, 1]);
  });

  it('creates a new alert after resolving an existing one in the same batch', () => {
    const plan = planGrouping([fire('f'), recover('f'), fire('f')], new Map([[openAlertKey('1', 'f'), '77']]));
    expect(plan.alerts.map((alert) => [alert.existingAlertId, alert.operations])).toEqual([
      ['77', ['group', 'resolve']],
      [null, ['create']],
    ]);
  });

  it('gives a second recovery payload no effect once the alert is resolved', () => {
    const plan = planGrouping([recover('f'), recover('f')], new Map([[openAlertKey('1', 'f'), '77']]));
    expect(plan.itemAlert).toEqual([0, null]);
    expect(plan.alerts).toHaveLength(1);
  });

  it('keeps projects apart: the same fingerprint in two projects is two alerts', () => {
    const plan = planGrouping([fire('f', '1'), fire('f', '2'), fire('f', '1')], new Map([[openAlertKey('2', 'f'), '9']]));
    expect(plan.alerts.map((alert) => [alert.projectId, alert.existingAlertId, alert.operations])).toEqual([
      ['1', null, ['create', 'group']],
      ['2', '9', ['group']],
    ]);
    expect(plan.itemAlert).toEqual([0, 1, 0]);
  });

  it('keeps fingerprints apart and interleaves them in order', () => {
    const plan = planGrouping([fire('a'), fire('b'), recover('a'), fire('b'), fire('a')], none);
    expect(plan.alerts.map((alert) => [alert.fingerprintSha256, alert.items, alert.operations])).toEqual([
      ['a', [0, 2], ['create', 'resolve']],
      ['b', [1, 3], ['create', 'group']],
      ['a', [4], ['create']],
    ]);
  });

  it('does not touch an existing alert whose fingerprint is not in the batch', () => {
    expect(planGrouping([fire('a')], new Map([[openAlertKey('1', 'b'), '5']])).alerts[0].existingAlertId).toBeNull();
  });
});
