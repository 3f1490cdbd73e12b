import { AlertCandidate } from '@alert-ingestion/alerts-domain';
import { alertBatchChanges, BatchItem } from './alert-batch-changes';
import { AlertRow } from './alert-row';

const now = new Date('2026-11-21T10:00:00.000Z');
const startedAt = new Date('2026-11-21T09:00:00.000Z');
const endedAt = new Date('2026-11-21T09:30:00.000Z');

function candidate(overrides: Partial<AlertCandidate> = {}): AlertCandidate {
  return {
    title: 'Disk full',
    description: null,
    severity: 'critical',
    startedAt,
    endedAt: null,
    service: null,
    monitoringTool: null,
    hosts: [],
    platformEnvironmentName: null,
    fingerprint: 'disk',
    fingerprintSha256: 'f'.repeat(64),
    payload: { title: 'Disk full' },
    ...overrides,
  };
}

const item = (work: number, overrides: Partial<AlertCandidate> = {}, projectId = '1'): BatchItem => ({
  work,
  projectId,
  integrationId: '9',
  candidate: candidate(overrides),
});

function openAlert(overrides: Partial<AlertRow> = {}): AlertRow {
  const { fingerprintSha256: _sha, startedAt: _started, endedAt: _ended, monitoringTool: _tool, platformEnvironmentName: _env, ...fields } = candidate();
  return {
    ...fields,
    id: '500',
    project_id: '1',
    iid: 7,
    integration_id: '9',
    status: 'acknowledged',
    events: 3,
    started_at: startedAt,
    ended_at: null,
    monitoring_tool: null,
    platform_environment_name: null,
    fingerprint_sha256: 'f'.repeat(64),
    created_at: new Date('2026-11-20T00:00:00.000Z'),
    updated_at: new Date('2026-11-20T00:00:00.000Z'),
    ...overrides,
  };
}

describe('alertBatchChanges', () => {
  it('numbers new alerts after the project counter, per project, and raises each counter once', () => {
    const changes = alertBatchChanges(
      [item(0, { fingerprintSha256: null }), item(1, { fingerprintSha256: null }, '2'), item(2, { fingerprintSha256: null })],
      new Map(),
      new Map([
        ['1', 4],
        ['2', 0],
      ]),
      now,
    );
    expect(changes.inserts.map((row) => [row.project_id, row.iid])).toEqual([
      ['1', 5],
      ['2', 1],
      ['1', 6],
    ]);
    expect(changes.iidCounters).toEqual([
      { project_id: '1', last_iid: 6 },
      { project_id: '2', last_iid: 1 },
    ]);
    expect([...changes.answers]).toEqual([
      [0, [{ iid: 5, title: 'Disk full' }]],
      [1, [{ iid: 1, title: 'Disk full' }]],
      [2, [{ iid: 6, title: 'Disk full' }]],
    ]);
  });

  it('inserts a new alert in its final state and writes one event per change, each with the alert as it was then', () => {
    const changes = alertBatchChanges([item(0), item(1), item(2, { endedAt })], new Map(), new Map(), now);
    expect(changes.inserts).toHaveLength(1);
    expect(changes.inserts[0]).toMatchObject({ iid: 1, status: 'resolved', events: 2, ended_at: endedAt, integration_id: '9' });
    expect(changes.events.map((event) => [event.value.type, event.value.alert.events, event.value.alert.status])).toEqual([
      ['alert.created', 1, 'triggered'],
      ['alert.grouped', 2, 'triggered'],
      ['alert.resolved', 2, 'resolved'],
    ]);
    expect(changes.events[0].value.alert).toMatchObject({ created_at: now.toISOString(), updated_at: now.toISOString(), ended_at: null });
    expect(changes.iidCounters).toEqual([{ project_id: '1', last_iid: 1 }]);
  });

  it('groups into and resolves an existing not-resolved alert with an update, not an insert', () => {
    const existing = openAlert();
    const changes = alertBatchChanges([item(0), item(1, { endedAt })], new Map([[existing.id, existing]]), new Map([['1', 7]]), now);
    expect(changes.inserts).toEqual([]);
    expect(changes.iidCounters).toEqual([]);
    expect(changes.updates).toEqual([{ id: '500', grouped: 1, ended_at: endedAt }]);
    expect(changes.events.map((event) => [event.value.type, event.iid, event.value.alert.events, event.value.alert.status])).toEqual([
      ['alert.grouped', 7, 4, 'acknowledged'],
      ['alert.resolved', 7, 4, 'resolved'],
    ]);
    expect(changes.events[1].value.alert.created_at).toBe('2026-11-20T00:00:00.000Z');
    expect(changes.events[1].value.alert.updated_at).toBe(now.toISOString());
    expect([...changes.answers]).toEqual([
      [0, [{ iid: 7, title: 'Disk full' }]],
      [1, [{ iid: 7, title: 'Disk full' }]],
    ]);
  });

  it('creates a new alert after a payload of the batch resolved the open one', () => {
    const existing = openAlert();
    const changes = alertBatchChanges([item(0, { endedAt }), item(1)], new Map([[existing.id, existing]]), new Map([['1', 7]]), now);
    expect(changes.updates).toEqual([{ id: '500', grouped: 0, ended_at: endedAt }]);
    expect(changes.inserts.map((row) => [row.iid, row.status, row.events])).toEqual([[8, 'triggered', 1]]);
    expect(changes.events.map((event) => [event.value.type, event.iid])).toEqual([
      ['alert.resolved', 7],
      ['alert.created', 8],
    ]);
  });

  it('answers nothing for a recovery payload that matches no alert, and gives several answers to a message of several payloads', () => {
    const changes = alertBatchChanges([item(0, { endedAt }), item(1, { fingerprintSha256: null }), item(1, { fingerprintSha256: null })], new Map(), new Map(), now);
    expect(changes.answers.has(0)).toBe(false);
    expect(changes.answers.get(1)).toEqual([
      { iid: 1, title: 'Disk full' },
      { iid: 2, title: 'Disk full' },
    ]);
    expect(changes.events.map((event) => event.value.type)).toEqual(['alert.created', 'alert.created']);
  });

  it('tells per message what each payload did: created, grouped, resolved, or unmatched', () => {
    const existing = openAlert();
    const changes = alertBatchChanges(
      [
        item(0),
        item(0, { endedAt }),
        item(1, { fingerprintSha256: 'b'.repeat(64), endedAt }),
        item(2),
        item(2, { fingerprintSha256: null }),
        item(3, { fingerprintSha256: null, endedAt }),
      ],
      new Map([[existing.id, existing]]),
      new Map([['1', 7]]),
      now,
    );
    expect([...changes.actions]).toEqual([
      [0, ['grouped', 'resolved']],
      [1, ['unmatched']],
      [2, ['created', 'created']],
      [3, ['unmatched']],
    ]);
  });

  it('keeps events in payload order across alerts', () => {
    const changes = alertBatchChanges(
      [item(0, { fingerprintSha256: 'a'.repeat(64) }), item(1, { fingerprintSha256: 'b'.repeat(64) }), item(2, { fingerprintSha256: 'a'.repeat(64) })],
      new Map(),
      new Map(),
      now,
    );
    expect(changes.events.map((event) => [event.iid, event.value.type])).toEqual([
      [1, 'alert.created'],
      [2, 'alert.created'],
      [1, 'alert.grouped'],
    ]);
  });
});
