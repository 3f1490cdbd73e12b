import { rotationRules, RotationRules, StoredRotation, StoredSchedule } from '@alert-ingestion/oncall-domain';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkOncallConfig, CheckedOncallConfig, ONCALL_CONFIG_SCHEMA, oncallConfigDocument, oncallConfigEtag, OncallSetup, planOncallConfig, policyRequestByIds, userDocument } from './oncall-config';

const members = new Map([
  ['1', 'ada'],
  ['2', 'bob'],
]);
const schedule = (id: string, name: string, timeZone = 'Europe/Berlin'): StoredSchedule => ({ id, projectId: '9', name, description: null, timeZone, calendarTokenCreatedAt: null, createdAt: 0, updatedAt: 0 });
const rules = (timeZone: string, participantIds: string[], startsAt = '2026-03-30T09:00'): RotationRules => {
  const checked = rotationRules({ name: 'x', starts_at: startsAt, shift_length: 1, shift_length_unit: 'weeks', participant_ids: participantIds }, timeZone, members);
  if ('refused' in checked) throw new Error(checked.refused.message);
  return checked.rules;
};
const rotation = (id: string, name: string, version: RotationRules, position = 0): StoredRotation => ({
  id,
  name,
  position,
  createdAt: 0,
  updatedAt: 0,
  deletedAt: null,
  versions: [{ ...version, id: `v${id}`, effectiveFrom: 0, effectiveUntil: null }],
  removedParticipants: [],
});

const setup: OncallSetup = {
  schedules: [{ schedule: schedule('3', 'Primary'), rotations: [rotation('5', 'Weeks', rules('Europe/Berlin', ['1', '2']))] }],
  policy: {
    policy: {
      repeat: 1,
      rules: [
        { afterMinutes: 0, condition: 'not_acknowledged', targets: [{ type: 'schedule', scheduleId: '3', name: 'Primary' }] },
        { afterMinutes: 30, condition: 'not_resolved', targets: [{ type: 'user', userId: '2', username: 'bob' }, { type: 'webhook', url: 'https://chat.example.com/hook' }] },
      ],
    },
    createdAt: 0,
    updatedAt: 0,
  },
  members,
};

function checked(input: unknown): CheckedOncallConfig {
  const result = checkOncallConfig(input, members);
  if ('errors' in result) throw new Error(JSON.stringify(result.errors));
  return result;
}

describe('the on-call setup as a document', () => {
  it('writes the setup with stable keys, and reads its own document back as changing nothing', () => {
    const document = oncallConfigDocument(setup, [userDocument('ada', { userId: '1', methods: [{ id: '4', userId: '1', type: 'email', name: 'Work', address: 'ada@example.com' }], rules: [] }, true)]);
    expect(document).toEqual({
      version: 1,
      schedules: [
        {
          name: 'Primary',
          description: null,
          time_zone: 'Europe/Berlin',
          rotations: [{ name: 'Weeks', starts_at: '2026-03-30T09:00', ends_at: null, shift_length: 1, shift_length_unit: 'weeks', active_period: null, participants: ['ada', 'bob'] }],
        },
      ],
      escalation_policy: {
        repeat: 1,
        rules: [
          { after_minutes: 0, condition: 'not_acknowledged', targets: [{ schedule: 'Primary' }] },
          { after_minutes: 30, condition: 'not_resolved', targets: [{ user: 'bob' }, { webhook: 'https://chat.example.com/hook' }] },
        ],
      },
      users: [{ username: 'ada', contact_methods: [{ type: 'email', name: 'Work' }], notification_rules: [{ contact_method: 'Work', after_minutes: 0 }], status_notices: true }],
    });
    const plan = planOncallConfig(setup, checked(JSON.parse(JSON.stringify(document))), '9');
    expect(plan.steps).toEqual([]);
    expect(plan.changes.map((change) => `${change.action} ${change.key}`)).toEqual(['unchanged Primary', 'unchanged Primary/Weeks', 'unchanged escalation_policy']);
    // Users are read-only: the version is the same whoever is paged how.
    expect(oncallConfigEtag(document)).toBe(oncallConfigEtag(oncallConfigDocument(setup)));
  });

  it('takes optional fields and key orders as GET writes them', () => {
    const written = {
      escalation_policy: { rules: [{ targets: [{ schedule: 'Primary' }], condition: 'not_acknowledged', after_minutes: 0 }, { after_minutes: 30, condition: 'not_resolved', targets: [{ user: 'bob' }, { webhook: 'https://chat.example.com/hook' }] }], repeat: 1 },
      schedules: [{ time_zone: 'Europe/Berlin', name: 'Primary', rotations: [{ participants: ['ada', 'bob'], shift_length_unit: 'weeks', shift_length: 1, starts_at: '2026-03-30T09:00:00', name: 'Weeks' }] }],
      version: 1,
    };
    expect(planOncallConfig(setup, checked(written), '9').steps).toEqual([]);
  });

  it('lists every problem with its JSON pointer', () => {
    const result = checkOncallConfig(
      {
        version: 2,
        extra: true,
        schedules: [
          { name: 'Primary', time_zone: 'PST', rotations: [] },
          { name: 'Primary', time_zone: 'UTC', rotations: [{ name: 'Days', starts_at: '2026-03-30T09:00', shift_length: 0, shift_length_unit: 'days', participants: ['ada'] }] },
        ],
        escalation_policy: { rules: [{ after_minutes: 0, condition: 'not_acknowledged', targets: [{ schedule: 'Primary', user: 'ada' }] }] },
      },
      members,
    );
    expect('errors' in result && result.errors.map((error) => error.pointer).sort()).toEqual(
      ['/version', '/extra', '/schedules/1/rotations/0/shift_length', '/escalation_policy/rules/0/targets/0'].sort(),
    );
    const meaning = checkOncallConfig(
      {
        version: 1,
        schedules: [
          { name: 'Primary', time_zone: 'PST' },
          { name: 'Primary', time_zone: 'UTC', rotations: [{ name: 'Days', starts_at: '2026-03-30T09:00', ends_at: '2026-03-29T09:00', shift_length: 1, shift_length_unit: 'days', participants: ['ada', 'cy'] }] },
          { name: 'Nights', time_zone: 'UTC', rotations: [{ name: 'Hours', starts_at: '2026-03-30T21:00', shift_length: 8, shift_length_unit: 'hours', active_period: { start_time: '21:00', end_time: '05:00' }, participants: ['bob'] }] },
        ],
        escalation_policy: {
          rules: [
            { after_minutes: 10, condition: 'not_acknowledged', targets: [{ schedule: 'Secondary' }] },
            { after_minutes: 5, condition: 'not_acknowledged', targets: [{ user: 'cy' }, { webhook: 'https://u:p@example.com/' }] },
          ],
        },
      },
      members,
    );
    expect('errors' in meaning && meaning.errors).toEqual([
      { pointer: '/schedules/0/time_zone', message: expect.stringContaining('IANA') },
      { pointer: '/schedules/1/name', message: 'Another schedule of the document is named "Primary".' },
      { pointer: '/schedules/1/rotations/0/participants/1', message: 'cy is not a member of the project.' },
      { pointer: '/schedules/2/rotations/0/active_period', message: expect.stringContaining('hourly rotation') },
      { pointer: '/escalation_policy/rules/0/targets/0/schedule', message: 'The project has no on-call schedule Secondary.' },
      { pointer: '/escalation_policy/rules/1/after_minutes', message: expect.stringContaining('in order') },
      { pointer: '/escalation_policy/rules/1/targets/0/user', message: 'User cy is not a member of the project.' },
      { pointer: '/escalation_policy/rules/1/targets/1/webhook', message: expect.stringContaining('credentials') },
    ]);
  });

  it('plans creates, updates and deletes by key, with the edits in an order that works', () => {
    const current = oncallConfigDocument(setup);
    const wanted = {
      ...current,
      schedules: [
        { name: 'Secondary', description: 'Back-up', time_zone: 'UTC', rotations: [{ name: 'Days', starts_at: '2026-03-30T09:00', ends_at: null, shift_length: 1, shift_length_unit: 'days', active_period: null, participants: ['bob'] }] },
        { ...current.schedules[0], time_zone: 'Europe/Paris', rotations: [{ ...current.schedules[0].rotations[0], name: 'Fortnights', shift_length: 2 }] },
      ],
      escalation_policy: { repeat: 0, rules: [{ after_minutes: 0, condition: 'not_acknowledged', targets: [{ schedule: 'Secondary' }] }] },
    };
    const plan = planOncallConfig(setup, checked(wanted), '9');
    expect(plan.changes.map((change) => `${change.action} ${change.kind} ${change.key}`)).toEqual([
      'create schedule Secondary',
      'create rotation Secondary/Days',
      'update schedule Primary',
      'create rotation Primary/Fortnights',
      'delete rotation Primary/Weeks',
      'update escalation_policy escalation_policy',
    ]);
    expect(plan.steps.map((step) => (step.kind === 'policy' ? 'policy' : `${step.edit.kind} ${step.kind === 'schedule' ? step.name : step.scheduleName}`))).toEqual([
      'create_schedule Secondary',
      'create_rotation Secondary',
      'update_schedule Primary',
      'create_rotation Primary',
      'delete_rotation Primary',
      'policy',
    ]);
    const policy = plan.steps.find((step) => step.kind === 'policy');
    expect(policy?.kind === 'policy' && policyRequestByIds(policy.request!, new Map([['Secondary', '7']]), new Map()).rules[0].targets).toEqual([{ type: 'schedule', schedule_id: '7' }]);
    const emptied = planOncallConfig(setup, checked({ version: 1, schedules: [], escalation_policy: null }), '9');
    expect(emptied.changes.map((change) => `${change.action} ${change.key}`)).toEqual(['delete escalation_policy', 'delete Primary']);
  });
});

describe('the JSON Schema of the document', () => {
  it('is committed as docs/oncall-config.schema.json, as served', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../../docs/oncall-config.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(ONCALL_CONFIG_SCHEMA);
  });
});
