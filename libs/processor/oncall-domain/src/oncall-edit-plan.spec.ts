import { CommandPlan, isRefused } from '@alert-ingestion/alerts-domain';
import { mayOverrideFor, OncallChanges, OncallEdit, OncallState, planOncallEdit, RotationRequest } from './oncall-edit-plan';
import { upcomingShifts } from './rotation';
import { StoredOverride, StoredRotation } from './stored-schedule';
import { HOUR_MS, localDateTimeOf } from './zoned-time';

const NOW = Date.parse('2026-03-20T12:00:00Z');
const ada = { userId: '1', username: 'ada' };
const bob = { userId: '2', username: 'bob' };
const members = new Map([
  ['1', 'ada'],
  ['2', 'bob'],
  ['3', 'cy'],
]);

const schedule = { id: '7', projectId: '5', name: 'Primary', description: null, timeZone: 'Europe/Berlin', calendarTokenCreatedAt: null, createdAt: 0, updatedAt: 0 };

function storedRotation(overrides: Partial<StoredRotation> = {}): StoredRotation {
  return {
    id: '11',
    name: 'Weekdays',
    position: 0,
    createdAt: 0,
    updatedAt: 0,
    deletedAt: null,
    removedParticipants: [],
    versions: [
      {
        id: '21',
        effectiveFrom: NOW - 10 * HOUR_MS,
        effectiveUntil: null,
        timeZone: 'Europe/Berlin',
        startsAt: Temporal.PlainDateTime.from('2026-03-16T09:00'),
        endsAt: null,
        shiftLength: { length: 1, unit: 'weeks' },
        activePeriod: null,
        participants: [ada, bob],
      },
    ],
    ...overrides,
  };
}

function storedOverride(id: string, start: number, end: number, user = ada, rotationId: string | null = '11'): StoredOverride {
  return { id, rotationId, user, start, end, createdBy: null, createdAt: 0 };
}

function state(overrides: Partial<OncallState> = {}): OncallState {
  return { now: NOW, schedule, rotations: [storedRotation()], overrides: [], nameTaken: false, ...overrides };
}

const rotationRequest: RotationRequest = {
  name: 'Nights',
  starts_at: '2026-03-23T20:00',
  shift_length: 1,
  shift_length_unit: 'days',
  participant_ids: ['1', '2'],
};

function accepted(plan: CommandPlan<OncallChanges>): OncallChanges | null {
  if (isRefused(plan)) throw new Error(`refused: ${JSON.stringify(plan.refused)}`);
  return plan.changes;
}

function refusedWith(plan: CommandPlan<OncallChanges>) {
  if (!isRefused(plan)) throw new Error('accepted');
  const { kind, code, field } = plan.refused;
  return { kind, code, ...(field !== undefined && { field }) };
}

const plan = (edit: OncallEdit, given: Partial<OncallState> = {}) => planOncallEdit(state(given), edit, '7');

describe('planOncallEdit', () => {
  describe('schedules', () => {
    it('takes an IANA zone as the runtime spells it, and refuses an abbreviation or an offset naming time_zone', () => {
      const create = (time_zone: unknown) => planOncallEdit(state({ schedule: undefined }), { kind: 'create_schedule', projectId: '5', name: ' Primary ', time_zone }, null);
      expect(accepted(create('europe/berlin'))?.schedule).toEqual({ insert: { projectId: '5', name: 'Primary', description: null, timeZone: 'Europe/Berlin' } });
      for (const zone of ['PST', 'CEST', '+01:00', 'Mars/Olympus', '', 42]) {
        expect(refusedWith(create(zone))).toEqual({ kind: 'invalid', code: 'validation_failed', field: 'time_zone' });
      }
    });

    it('refuses a name the project already has, and a blank one', () => {
      expect(refusedWith(planOncallEdit(state({ schedule: undefined, nameTaken: true }), { kind: 'create_schedule', projectId: '5', name: 'Primary', time_zone: 'UTC' }, null))).toEqual({
        kind: 'conflict',
        code: 'schedule_name_taken',
        field: 'name',
      });
      expect(refusedWith(plan({ kind: 'update_schedule', name: '  ' }))).toEqual({ kind: 'invalid', code: 'validation_failed', field: 'name' });
    });

    it('gives every rotation a new version in the new zone from now, and changes nothing when nothing changes', () => {
      const changes = accepted(plan({ kind: 'update_schedule', time_zone: 'America/New_York' }));
      expect(changes?.schedule).toEqual({ update: { timeZone: 'America/New_York' } });
      expect(changes?.versionEnds).toEqual([{ id: '21', at: NOW }]);
      expect(changes?.versionInserts).toEqual([expect.objectContaining({ rotationId: '11', effectiveFrom: NOW, timeZone: 'America/New_York', participants: [ada, bob] })]);
      expect(accepted(plan({ kind: 'update_schedule', name: 'Primary', time_zone: 'Europe/Berlin' }))).toBeNull();
    });

    it('names a schedule it does not find', () => {
      expect(refusedWith(plan({ kind: 'delete_schedule' }, { schedule: undefined }))).toEqual({ kind: 'not_found', code: 'schedule_not_found' });
    });
  });

  describe('rotations', () => {
    const create = (rotation: Partial<RotationRequest>) => plan({ kind: 'create_rotation', rotation: { ...rotationRequest, ...rotation }, members });

    it('adds a rotation in force from now, after the others', () => {
      const changes = accepted(create({}));
      expect(changes?.rotationInsert).toEqual({ name: 'Nights', position: 1 });
      expect(changes?.versionInserts).toEqual([
        expect.objectContaining({ rotationId: null, effectiveFrom: NOW, timeZone: 'Europe/Berlin', startsAt: Temporal.PlainDateTime.from('2026-03-23T20:00'), participants: [ada, bob] }),
      ]);
    });

    it.each<[string, Partial<RotationRequest>, string]>([
      ['a start with an offset', { starts_at: '2026-03-23T20:00:00Z' }, 'starts_at'],
      ['a start that is no date', { starts_at: '2026-02-30T20:00' }, 'starts_at'],
      ['an end before the start', { ends_at: '2026-03-23T19:00' }, 'ends_at'],
      ['no shift length', { shift_length: 0 }, 'shift_length'],
      ['more than a year of hours', { shift_length: 8761, shift_length_unit: 'hours' }, 'shift_length'],
      ['an active period on an hourly rotation', { shift_length_unit: 'hours', active_period: { start_time: '09:00', end_time: '17:00' } }, 'active_period'],
      ['an active period that is no time', { active_period: { start_time: '9am', end_time: '17:00' } }, 'active_period.start_time'],
      ['an empty active period', { active_period: { start_time: '09:00', end_time: '09:00' } }, 'active_period.end_time'],
      ['no participant', { participant_ids: [] }, 'participant_ids'],
      ['more than 100 participants', { participant_ids: Array.from({ length: 101 }, (_, index) => String(index + 1)) }, 'participant_ids'],
      ['a participant twice', { participant_ids: ['1', '2', '1'] }, 'participant_ids[2]'],
      ['someone who is not a member', { participant_ids: ['1', '9'] }, 'participant_ids[1]'],
    ])('refuses %s, naming the field', (_case, rotation, field) => {
      expect(refusedWith(create(rotation))).toEqual({ kind: 'invalid', code: 'validation_failed', field });
    });

    it('refuses a second rotation of the same name in the schedule', () => {
      expect(refusedWith(create({ name: 'Weekdays' }))).toEqual({ kind: 'conflict', code: 'rotation_name_taken', field: 'name' });
    });

    it('renames without a new version, and starts a new version from now for new rules', () => {
      expect(accepted(plan({ kind: 'update_rotation', rotationId: '11', rotation: { name: 'Week' }, members }))).toEqual(expect.objectContaining({ rotationUpdates: [{ id: '11', name: 'Week' }], versionInserts: [] }));
      const reordered = accepted(plan({ kind: 'update_rotation', rotationId: '11', rotation: { participant_ids: ['2', '1'], ends_at: undefined }, members }));
      expect(reordered?.versionEnds).toEqual([{ id: '21', at: NOW }]);
      expect(reordered?.versionInserts).toEqual([expect.objectContaining({ rotationId: '11', effectiveFrom: NOW, participants: [bob, ada], shiftLength: { length: 1, unit: 'weeks' } })]);
      expect(accepted(plan({ kind: 'update_rotation', rotationId: '11', rotation: { participant_ids: ['1', '2'] }, members }))).toBeNull();
    });

    it('replaces a version made at the same instant instead of keeping one never in force', () => {
      const rotations = [storedRotation({ versions: [{ ...storedRotation().versions[0], effectiveFrom: NOW }] })];
      const changes = accepted(plan({ kind: 'update_rotation', rotationId: '11', rotation: { shift_length: 2 }, members }, { rotations }));
      expect(changes?.versionDrops).toEqual(['21']);
      expect(changes?.versionEnds).toEqual([]);
    });

    it('deletes a rotation from now on: its version ends, its overrides under way end and later ones go', () => {
      const overrides = [storedOverride('31', NOW - HOUR_MS, NOW + HOUR_MS), storedOverride('32', NOW + HOUR_MS, NOW + 2 * HOUR_MS), storedOverride('33', NOW, NOW + HOUR_MS, ada, null)];
      const changes = accepted(plan({ kind: 'delete_rotation', rotationId: '11' }, { overrides }));
      expect(changes).toEqual(
        expect.objectContaining({
          rotationUpdates: [{ id: '11', deletedAt: NOW }],
          versionEnds: [{ id: '21', at: NOW }],
          overrideEnds: [{ id: '31', at: NOW }],
          overrideDrops: ['32'],
        }),
      );
      expect(refusedWith(plan({ kind: 'delete_rotation', rotationId: '99' }))).toEqual({ kind: 'not_found', code: 'rotation_not_found' });
    });
  });

  describe('overrides', () => {
    const create = (times: { starts_at?: unknown; ends_at: unknown }, rotationId: string | null = '11') =>
      plan({ kind: 'create_override', userId: '2', rotationId, createdBy: bob, members, ...times });

    it('starts now when asked for a start in the past, and reads local times in the schedule zone (a skipped one moves on)', () => {
      expect(accepted(create({ starts_at: '2026-03-01T00:00:00Z', ends_at: '2026-03-20T14:00:00+01:00' }))?.overrideInsert).toEqual({
        rotationId: '11',
        user: bob,
        start: NOW,
        end: Date.parse('2026-03-20T13:00:00Z'),
        createdBy: bob,
        createdAt: NOW,
      });
      const local = accepted(create({ starts_at: '2026-03-29T02:30', ends_at: '2026-03-29T09:00' }, null))?.overrideInsert;
      expect([local?.start, local?.end].map((instant) => new Date(instant ?? 0).toISOString())).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    });

    it.each<[string, { starts_at?: unknown; ends_at: unknown }, string]>([
      ['an end in the past', { ends_at: '2026-03-20T11:00:00Z' }, 'ends_at'],
      ['an end before the start', { starts_at: '2026-03-21T11:00:00Z', ends_at: '2026-03-21T10:00:00Z' }, 'ends_at'],
      ['a start that is no time', { starts_at: 'tomorrow', ends_at: '2026-03-21T10:00:00Z' }, 'starts_at'],
      ['more than 366 days', { ends_at: '2027-03-22T12:00:00Z' }, 'ends_at'],
    ])('refuses %s', (_case, times, field) => {
      expect(refusedWith(create(times))).toEqual({ kind: 'invalid', code: 'validation_failed', field });
    });

    it('refuses a rotation the schedule does not have, and someone who is not a member', () => {
      expect(refusedWith(create({ ends_at: '2026-03-21T00:00:00Z' }, '99'))).toEqual({ kind: 'invalid', code: 'validation_failed', field: 'rotation_id' });
      const stranger = plan({ kind: 'create_override', userId: '9', rotationId: null, createdBy: null, members, ends_at: '2026-03-21T00:00:00Z' });
      expect(refusedWith(stranger)).toEqual({ kind: 'invalid', code: 'validation_failed', field: 'user_id' });
    });

    it('gives the rotation back when deleted: one under way ends now, one to come goes, an ended one stays as history', () => {
      const overrides = [storedOverride('31', NOW - HOUR_MS, NOW + HOUR_MS), storedOverride('32', NOW + HOUR_MS, NOW + 2 * HOUR_MS), storedOverride('33', NOW - 2 * HOUR_MS, NOW)];
      expect(accepted(plan({ kind: 'delete_override', overrideId: '31' }, { overrides }))).toEqual(expect.objectContaining({ overrideEnds: [{ id: '31', at: NOW }], overrideDrops: [] }));
      expect(accepted(plan({ kind: 'delete_override', overrideId: '32' }, { overrides }))).toEqual(expect.objectContaining({ overrideEnds: [], overrideDrops: ['32'] }));
      expect(refusedWith(plan({ kind: 'delete_override', overrideId: '33' }, { overrides }))).toEqual({ kind: 'conflict', code: 'override_ended' });
      expect(refusedWith(plan({ kind: 'delete_override', overrideId: '34' }, { overrides }))).toEqual({ kind: 'not_found', code: 'override_not_found' });
    });

    it('lets developers put only themselves on call, maintainers anyone', () => {
      expect(mayOverrideFor({ userId: '2', managesSchedules: false }, '2')).toBe(true);
      expect(mayOverrideFor({ userId: '2', managesSchedules: false }, '1')).toBe(false);
      expect(mayOverrideFor({ userId: '3', managesSchedules: true }, '1')).toBe(true);
      expect(mayOverrideFor({ userId: null, managesSchedules: true }, '1')).toBe(true);
    });
  });

  it('takes members who left the project out of every rotation from now, noting it, and stops their overrides', () => {
    const overrides = [storedOverride('31', NOW - HOUR_MS, NOW + HOUR_MS, bob), storedOverride('32', NOW + HOUR_MS, NOW + 2 * HOUR_MS, ada)];
    const changes = accepted(plan({ kind: 'remove_departed', members: new Set(['1']) }, { overrides }));
    expect(changes).toEqual(
      expect.objectContaining({
        removals: [{ rotationId: '11', user: bob, removedAt: NOW }],
        versionEnds: [{ id: '21', at: NOW }],
        versionInserts: [expect.objectContaining({ rotationId: '11', participants: [ada], effectiveFrom: NOW })],
        overrideEnds: [{ id: '31', at: NOW }],
        overrideDrops: [],
      }),
    );
    expect(accepted(plan({ kind: 'remove_departed', members: new Set(['1', '2']) }, { overrides }))).toBeNull();
  });
});

describe('upcomingShifts', () => {
  it('previews whole shifts from the one under way, a daylight-saving change showing as a 23-hour shift', () => {
    const rules = storedRotation().versions[0];
    const shifts = upcomingShifts({ ...rules, shiftLength: { length: 1, unit: 'days' } }, Date.parse('2026-03-27T12:00:00Z'), 4);
    expect(shifts.map((shift) => [localDateTimeOf(shift.start, 'Europe/Berlin').toString({ smallestUnit: 'minute' }), (shift.end - shift.start) / HOUR_MS])).toEqual([
      ['2026-03-27T09:00', 24],
      ['2026-03-28T09:00', 23],
      ['2026-03-29T09:00', 24],
      ['2026-03-30T09:00', 24],
    ]);
  });
});
