import {
  ONCALL_CONFIG_VERSION,
  OncallConfigChange,
  OncallConfigDocument,
  OncallConfigError,
  OncallConfigPolicy,
  OncallConfigRotation,
  OncallConfigSchedule,
  OncallConfigUser,
  SHIFT_LENGTH_UNITS,
  ESCALATION_CONDITIONS,
  CONTACT_METHOD_TYPES,
} from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import {
  currentVersion,
  formatLocalDateTime,
  OncallEdit,
  parseTimeZone,
  RotationRequest,
  RotationRules,
  rotationRules,
  StoredRotation,
  StoredSchedule,
} from '@alert-ingestion/oncall-domain';
import Ajv, { ErrorObject } from 'ajv';
import { userPageMethods } from './contact-methods';
import { EscalationPolicy, MAX_AFTER_MINUTES, MAX_REPEAT, MAX_RULES, MAX_TARGETS, MAX_URL_LENGTH, PolicyRequest, policyProblems, StoredPolicy } from './escalation-policy';
import { UserPaging } from './stored-escalation';

// A project's whole on-call setup as one document (docs/api-guide.md "On-call setup as code"):
// schedules and their rotations, the escalation policy, and (read-only) how the members it can page
// are paged. Stable keys: schedules by name, rotations by name within their schedule, members by
// username. The document's structure is its JSON Schema's (ONCALL_CONFIG_SCHEMA, checked by Ajv);
// what it names and means is checked by the rules the API's edits use (the on-call rooms'
// rotationRules, the policy's policyProblems), every problem with its JSON pointer. Applying it is a
// list of the on-call rooms' own edits (planOncallEdit decides each) and the policy's. Pure.

const NAME = { type: 'string', minLength: 1, maxLength: 200 } as const;
const LOCAL_DATE_TIME = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$', description: "A local date and time in the schedule's time zone, without an offset." } as const;
const LOCAL_TIME = { type: 'string', pattern: '^\\d{2}:\\d{2}$' } as const;

/** The document's JSON Schema (draft-07), served at `GET .../oncall_config/schema` and committed as docs/oncall-config.schema.json. */
export const ONCALL_CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'urn:alert-ingestion:oncall-config:1',
  title: "A project's on-call setup",
  description: 'Schedules, rotations and the escalation policy of one project, applied atomically by PUT /api/v4/projects/:id/oncall_config. Overrides stay out of it.',
  type: 'object',
  additionalProperties: false,
  required: ['version', 'schedules', 'escalation_policy'],
  properties: {
    version: { const: ONCALL_CONFIG_VERSION },
    schedules: { type: 'array', maxItems: 100, items: { $ref: '#/definitions/schedule' }, description: 'Keyed by name: a schedule missing here is deleted.' },
    escalation_policy: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['rules'],
      properties: {
        repeat: { type: 'integer', minimum: 0, maximum: MAX_REPEAT, default: 0 },
        rules: { type: 'array', minItems: 1, maxItems: MAX_RULES, items: { $ref: '#/definitions/rule' } },
      },
      description: 'Null: no escalation policy.',
    },
    users: { readOnly: true, type: 'array', items: { $ref: '#/definitions/user' }, description: 'How the members the policy can page are paged; each member sets their own. Ignored by PUT.' },
  },
  definitions: {
    schedule: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'time_zone'],
      properties: {
        name: NAME,
        description: { type: ['string', 'null'], maxLength: 2000, default: null },
        time_zone: { type: 'string', minLength: 1, maxLength: 64, description: 'An IANA time zone name, such as Europe/Berlin.' },
        rotations: { type: 'array', maxItems: 50, items: { $ref: '#/definitions/rotation' }, default: [], description: 'Keyed by name: a rotation missing here is deleted.' },
      },
    },
    rotation: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'starts_at', 'shift_length', 'shift_length_unit', 'participants'],
      properties: {
        name: NAME,
        starts_at: LOCAL_DATE_TIME,
        ends_at: { anyOf: [LOCAL_DATE_TIME, { type: 'null' }], default: null },
        shift_length: { type: 'integer', minimum: 1, maximum: 8760 },
        shift_length_unit: { enum: [...SHIFT_LENGTH_UNITS] },
        active_period: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['start_time', 'end_time'],
          properties: { start_time: LOCAL_TIME, end_time: LOCAL_TIME },
          default: null,
        },
        participants: { type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1 }, description: 'Usernames of project members, in turn.' },
      },
    },
    rule: {
      type: 'object',
      additionalProperties: false,
      required: ['after_minutes', 'condition', 'targets'],
      properties: {
        after_minutes: { type: 'integer', minimum: 0, maximum: MAX_AFTER_MINUTES },
        condition: { enum: [...ESCALATION_CONDITIONS] },
        targets: { type: 'array', minItems: 1, maxItems: MAX_TARGETS, items: { $ref: '#/definitions/target' } },
      },
    },
    target: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      properties: {
        schedule: { type: 'string', minLength: 1, description: 'A schedule of this document, by name: whoever is on call in it.' },
        user: { type: 'string', minLength: 1, description: 'A project member, by username.' },
        webhook: { type: 'string', pattern: '^https?://', maxLength: MAX_URL_LENGTH, description: 'A URL; its signing secret is shown once by the policy API, never here.' },
      },
    },
    user: {
      type: 'object',
      properties: {
        username: { type: 'string' },
        contact_methods: { type: 'array', items: { type: 'object', properties: { type: { enum: [...CONTACT_METHOD_TYPES] }, name: { type: 'string' } } } },
        notification_rules: { type: 'array', items: { type: 'object', properties: { contact_method: { type: 'string' }, after_minutes: { type: 'integer' } } } },
        status_notices: { type: 'boolean' },
      },
    },
  },
} as const;

const validateStructure = new Ajv({ allErrors: true, useDefaults: true, strict: false }).compile(ONCALL_CONFIG_SCHEMA);

/** A project's on-call setup as read: its schedules with their live rotations, its policy, its members (id to username). */
export interface OncallSetup {
  schedules: ReadonlyArray<{ schedule: StoredSchedule; rotations: readonly StoredRotation[] }>;
  policy: StoredPolicy | undefined;
  members: ReadonlyMap<string, string>;
}

/** A rotation's rules as the document writes them. */
function rotationDocument(name: string, rules: RotationRules): OncallConfigRotation {
  return {
    name,
    starts_at: formatLocalDateTime(rules.startsAt),
    ends_at: rules.endsAt && formatLocalDateTime(rules.endsAt),
    shift_length: rules.shiftLength.length,
    shift_length_unit: rules.shiftLength.unit,
    active_period: rules.activePeriod && { start_time: rules.activePeriod.start.toString({ smallestUnit: 'minute' }), end_time: rules.activePeriod.end.toString({ smallestUnit: 'minute' }) },
    participants: rules.participants.map((participant) => participant.username),
  };
}

/** A policy as the document writes it: schedules by name, members by username. */
function policyDocument(policy: EscalationPolicy, scheduleNames: ReadonlyMap<string, string>): OncallConfigPolicy {
  return {
    repeat: policy.repeat,
    rules: policy.rules.map((rule) => ({
      after_minutes: rule.afterMinutes,
      condition: rule.condition,
      targets: rule.targets.map((target) => {
        if (target.type === 'schedule') return { schedule: scheduleNames.get(target.scheduleId) ?? target.name };
        if (target.type === 'user') return { user: target.username };
        return { webhook: target.url };
      }),
    })),
  };
}

/** How a member is paged, as the document shows it (read-only). */
export function userDocument(username: string, paging: UserPaging | undefined, statusNotices: boolean): OncallConfigUser {
  return {
    username,
    contact_methods: (paging?.methods ?? []).map((method) => ({ type: method.type, name: method.name })),
    notification_rules: userPageMethods(paging).map(({ method, afterMinutes }) => ({ contact_method: method.name, after_minutes: afterMinutes })),
    status_notices: statusNotices,
  };
}

/** The setup as the document GET gives: schedules by name, rotations in their order, and (when given) how its members are paged. */
export function oncallConfigDocument(setup: OncallSetup, users?: readonly OncallConfigUser[]): OncallConfigDocument {
  const names = new Map(setup.schedules.map(({ schedule }) => [schedule.id, schedule.name]));
  return {
    version: ONCALL_CONFIG_VERSION,
    schedules: [...setup.schedules]
      .sort((a, b) => a.schedule.name.localeCompare(b.schedule.name))
      .map(({ schedule, rotations }) => ({
        name: schedule.name,
        description: schedule.description,
        time_zone: schedule.timeZone,
        rotations: [...rotations]
          .sort((a, b) => a.position - b.position || Number(a.id) - Number(b.id))
          .flatMap((rotation) => {
            const rules = currentVersion(rotation);
            return rules && rules.effectiveUntil === null ? [rotationDocument(rotation.name, rules)] : [];
          }),
      })),
    escalation_policy: setup.policy ? policyDocument(setup.policy.policy, names) : null,
    ...(users && { users: [...users].sort((a, b) => a.username.localeCompare(b.username)) }),
  };
}

/** The setup's version: a digest of its document (what PUT manages: `users` aside), as an HTTP entity tag. */
export function oncallConfigEtag(document: OncallConfigDocument): string {
  const { users: _users, ...managed } = document;
  return `"${sha256Hex(JSON.stringify(managed)).slice(0, 32)}"`;
}

/** `participant_ids[2]` or `active_period.start_time` as a JSON pointer's tail: `participants/2`, `active_period/start_time`. */
function pointerOf(base: string, field: string, renames: Readonly<Record<string, string>> = {}): string {
  const steps = field.replace(/\[(\d+)\]/g, '.$1').split('.');
  return [base, ...steps.map((step) => renames[step] ?? step)].join('/');
}

/** An Ajv error at its JSON pointer (a missing or unknown property: the property's own). */
function schemaError(error: ErrorObject): OncallConfigError {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const key = params.missingProperty ?? params.additionalProperty;
  const pointer = key === undefined ? error.instancePath : `${error.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const message =
    params.additionalProperty !== undefined ? `${params.additionalProperty} is not a field of this document here` : params.missingProperty !== undefined ? `${params.missingProperty} is required` : (error.message ?? 'is not valid');
  return { pointer, message };
}

/** A checked document: its values normalised as GET writes them, and what the apply needs (each rotation's request, the policy's). */
export interface CheckedOncallConfig {
  document: OncallConfigDocument;
  rotations: Map<string, Map<string, RotationRequest>>;
  policy: PolicyRequest | null;
}

/**
 * Checks a document: its structure against the JSON Schema (every error), then what it names and
 * means, every problem with its JSON pointer: schedule and rotation names each once, time zones,
 * each rotation's rules (the on-call rooms' rotationRules: local times, shift lengths, active
 * periods) and participants (members, by username), and the policy (policyProblems: rules in order,
 * targets that are schedules of the document, members, webhook URLs). `users` is ignored.
 */
export function checkOncallConfig(input: unknown, members: ReadonlyMap<string, string>): CheckedOncallConfig | { errors: OncallConfigError[] } {
  const copy = JSON.parse(JSON.stringify(input ?? null)) as unknown;
  if (!validateStructure(copy)) return { errors: (validateStructure.errors ?? []).map(schemaError) };
  const document = copy as OncallConfigDocument;
  const errors: OncallConfigError[] = [];
  const idOfUsername = new Map([...members].map(([id, username]) => [username, id]));
  const scheduleNames = new Set<string>();
  const rotations = new Map<string, Map<string, RotationRequest>>();
  const normalised: OncallConfigSchedule[] = [];
  for (const [index, schedule] of document.schedules.entries()) {
    const at = `/schedules/${index}`;
    const name = schedule.name.trim();
    if (scheduleNames.has(name)) errors.push({ pointer: `${at}/name`, message: `Another schedule of the document is named ${JSON.stringify(name)}.` });
    scheduleNames.add(name);
    const zone = parseTimeZone(schedule.time_zone);
    if (!zone.ok) errors.push({ pointer: `${at}/time_zone`, message: zone.message });
    const requests = new Map<string, RotationRequest>();
    const shown: OncallConfigRotation[] = [];
    for (const [rotationIndex, rotation] of (schedule.rotations ?? []).entries()) {
      const rotationAt = `${at}/rotations/${rotationIndex}`;
      const rotationName = rotation.name.trim();
      if (requests.has(rotationName)) errors.push({ pointer: `${rotationAt}/name`, message: `Another rotation of the schedule is named ${JSON.stringify(rotationName)}.` });
      const unknown = rotation.participants.flatMap((username, position) => (idOfUsername.has(username) ? [] : [{ pointer: `${rotationAt}/participants/${position}`, message: `${username} is not a member of the project.` }]));
      errors.push(...unknown);
      const { participants, ...rules } = rotation;
      const request: RotationRequest = { ...rules, name: rotationName, participant_ids: participants.map((username) => idOfUsername.get(username) ?? '') };
      requests.set(rotationName, request);
      if (unknown.length > 0 || !zone.ok) continue;
      const checked = rotationRules(request, zone.value, members);
      if ('refused' in checked) errors.push({ pointer: pointerOf(rotationAt, checked.refused.field ?? '', { participant_ids: 'participants' }), message: checked.refused.message });
      else shown.push(rotationDocument(rotationName, checked.rules));
    }
    rotations.set(name, requests);
    normalised.push({ name, description: schedule.description ?? null, time_zone: zone.ok ? zone.value : schedule.time_zone, rotations: shown });
  }
  let policy: PolicyRequest | null = null;
  if (document.escalation_policy) {
    policy = {
      repeat: document.escalation_policy.repeat ?? 0,
      rules: document.escalation_policy.rules.map((rule) => ({
        after_minutes: rule.after_minutes,
        condition: rule.condition,
        targets: rule.targets.map((target) =>
          target.schedule !== undefined ? { type: 'schedule', schedule_id: target.schedule } : target.user !== undefined ? { type: 'user', user_id: target.user } : { type: 'webhook', url: target.webhook },
        ),
      })),
    };
    // Schedules by name and members by username: the document's own keys.
    const directory = { schedules: new Map([...scheduleNames].map((name) => [name, name])), members: new Map([...idOfUsername.keys()].map((username) => [username, username])) };
    const checked = policyProblems(policy, directory);
    if ('problems' in checked) {
      errors.push(...checked.problems.map((problem) => ({ pointer: pointerOf('/escalation_policy', problem.field, { schedule_id: 'schedule', user_id: 'user', url: 'webhook' }), message: problem.message })));
    }
  }
  if (errors.length > 0) return { errors };
  const { users: _users, ...managed } = document;
  return { document: { ...managed, schedules: normalised, escalation_policy: document.escalation_policy && normalisedPolicy(document.escalation_policy) }, rotations, policy };
}

/** A checked policy as GET writes it: its fields in order, each target's one key, URLs normalised. */
function normalisedPolicy(policy: OncallConfigPolicy): OncallConfigPolicy {
  return {
    repeat: policy.repeat ?? 0,
    rules: policy.rules.map((rule) => ({
      after_minutes: rule.after_minutes,
      condition: rule.condition,
      targets: rule.targets.map((target) =>
        target.schedule !== undefined ? { schedule: target.schedule } : target.user !== undefined ? { user: target.user } : { webhook: new URL(target.webhook ?? '').toString() },
      ),
    })),
  };
}

/** The document's policy request with its schedules and members named by id, once every schedule exists. */
export function policyRequestByIds(request: PolicyRequest, scheduleIds: ReadonlyMap<string, string>, userIds: ReadonlyMap<string, string>): PolicyRequest {
  return {
    ...request,
    rules: request.rules.map((rule) => ({
      ...rule,
      targets: rule.targets.map((target) =>
        target.type === 'schedule'
          ? { ...target, schedule_id: scheduleIds.get(String(target.schedule_id)) }
          : target.type === 'user'
            ? { ...target, user_id: userIds.get(String(target.user_id)) }
            : target,
      ),
    })),
  };
}

/** One step of an apply, in order: an edit of the on-call rooms (decided by planOncallEdit when it runs), or the policy's. */
export type OncallConfigStep =
  | { kind: 'schedule'; name: string; scheduleId: string | null; edit: OncallEdit; pointer: string }
  /** `scheduleId` null: the schedule of that name the apply creates before. */
  | { kind: 'rotation'; scheduleName: string; scheduleId: string | null; edit: OncallEdit; pointer: string }
  | { kind: 'policy'; request: PolicyRequest | null };

export interface OncallConfigPlan {
  changes: OncallConfigChange[];
  steps: OncallConfigStep[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What applying a checked document does to the setup, by key: each schedule and rotation created,
 * updated, deleted or unchanged, and the policy; and the edits that do it, in an order that works
 * (schedules before their rotations, the policy once its schedules exist, deletions of schedules
 * last). The same document twice plans nothing but `unchanged`.
 */
export function planOncallConfig(setup: OncallSetup, checked: CheckedOncallConfig, projectId: string): OncallConfigPlan {
  const current = oncallConfigDocument(setup);
  const changes: OncallConfigChange[] = [];
  const steps: OncallConfigStep[] = [];
  const stored = new Map(setup.schedules.map((entry) => [entry.schedule.name, entry]));
  const wanted = new Map(checked.document.schedules.map((schedule, index) => [schedule.name, { schedule, index }]));
  for (const [name, { schedule, index }] of wanted) {
    const pointer = `/schedules/${index}`;
    const existing = stored.get(name);
    const currentSchedule = current.schedules.find((candidate) => candidate.name === name);
    if (!existing || !currentSchedule) {
      changes.push({ action: 'create', kind: 'schedule', key: name });
      steps.push({ kind: 'schedule', name, scheduleId: null, edit: { kind: 'create_schedule', projectId, name, description: schedule.description, time_zone: schedule.time_zone }, pointer });
    } else if (currentSchedule.description !== schedule.description || currentSchedule.time_zone !== schedule.time_zone) {
      changes.push({ action: 'update', kind: 'schedule', key: name });
      steps.push({ kind: 'schedule', name, scheduleId: existing.schedule.id, edit: { kind: 'update_schedule', description: schedule.description, time_zone: schedule.time_zone }, pointer });
    } else {
      changes.push({ action: 'unchanged', kind: 'schedule', key: name });
    }
    const requests = checked.rotations.get(name) ?? new Map<string, RotationRequest>();
    const live = new Map((existing?.rotations ?? []).map((rotation) => [rotation.name, rotation]));
    for (const [rotationIndex, rotation] of schedule.rotations.entries()) {
      const key = `${name}/${rotation.name}`;
      const request = requests.get(rotation.name);
      if (!request) continue;
      const rotationPointer = `${pointer}/rotations/${rotationIndex}`;
      const storedRotation = live.get(rotation.name);
      const edit = { members: setup.members, rotation: request };
      if (!storedRotation) {
        changes.push({ action: 'create', kind: 'rotation', key });
        steps.push({ kind: 'rotation', scheduleName: name, scheduleId: existing?.schedule.id ?? null, edit: { kind: 'create_rotation', ...edit }, pointer: rotationPointer });
      } else if (!same(currentSchedule?.rotations.find((candidate) => candidate.name === rotation.name), rotation)) {
        changes.push({ action: 'update', kind: 'rotation', key });
        steps.push({ kind: 'rotation', scheduleName: name, scheduleId: existing?.schedule.id ?? null, edit: { kind: 'update_rotation', rotationId: storedRotation.id, ...edit }, pointer: rotationPointer });
      } else {
        changes.push({ action: 'unchanged', kind: 'rotation', key });
      }
    }
    for (const storedRotation of existing?.rotations ?? []) {
      if (requests.has(storedRotation.name)) continue;
      changes.push({ action: 'delete', kind: 'rotation', key: `${name}/${storedRotation.name}` });
      steps.push({ kind: 'rotation', scheduleName: name, scheduleId: existing!.schedule.id, edit: { kind: 'delete_rotation', rotationId: storedRotation.id }, pointer: pointer });
    }
  }
  const policy = checked.document.escalation_policy;
  if (!same(current.escalation_policy, policy)) {
    changes.push({ action: policy === null ? 'delete' : current.escalation_policy === null ? 'create' : 'update', kind: 'escalation_policy', key: 'escalation_policy' });
    steps.push({ kind: 'policy', request: checked.policy });
  } else if (policy !== null) {
    changes.push({ action: 'unchanged', kind: 'escalation_policy', key: 'escalation_policy' });
  }
  for (const { schedule } of setup.schedules) {
    if (wanted.has(schedule.name)) continue;
    changes.push({ action: 'delete', kind: 'schedule', key: schedule.name });
    steps.push({ kind: 'schedule', name: schedule.name, scheduleId: schedule.id, edit: { kind: 'delete_schedule' }, pointer: '/schedules' });
  }
  return { changes, steps };
}

/** What a PUT of a document does: refused as written against another version (412), refused as invalid (400), or applied (a dry run only plans). */
export type OncallConfigDecision =
  | { kind: 'stale'; etag: string }
  | { kind: 'invalid'; errors: OncallConfigError[] }
  | { kind: 'apply'; plan: OncallConfigPlan; etag: string };

/** Whether an `If-Match` header admits the current version: absent, `*`, or a list naming its tag (weak or strong). */
export function ifMatchAdmits(ifMatch: string | undefined, etag: string): boolean {
  if (ifMatch === undefined || ifMatch.trim() === '*') return true;
  return ifMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Decides a PUT of `input` over the setup as it is (read with the setup locked). */
export function decideOncallConfigPut(setup: OncallSetup, input: unknown, ifMatch: string | undefined, projectId: string): OncallConfigDecision {
  const etag = oncallConfigEtag(oncallConfigDocument(setup));
  if (!ifMatchAdmits(ifMatch, etag)) return { kind: 'stale', etag };
  const checked = checkOncallConfig(input, setup.members);
  if ('errors' in checked) return { kind: 'invalid', errors: checked.errors };
  return { kind: 'apply', plan: planOncallConfig(setup, checked, projectId), etag };
}
