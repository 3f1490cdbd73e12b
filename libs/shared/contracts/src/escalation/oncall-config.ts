import type { HttpSchemas } from '../http';
import { ActivePeriodView, ShiftLengthUnit } from '../oncall';
import { ContactMethodType } from './paging';
import { EscalationCondition } from './escalation-policy';

// A project's whole on-call setup as one document (docs/api-guide.md "On-call setup as code"):
// `GET/PUT /projects/:id/oncall_config`, JSON or YAML. Stable keys: schedules by name, rotations by
// name within their schedule, members by username; overrides stay out of it (they are operational).

export const ONCALL_CONFIG_VERSION = 1;

export interface OncallConfigRotation {
  name: string;
  /** A local date and time in the schedule's zone: the first handoff. */
  starts_at: string;
  ends_at: string | null;
  shift_length: number;
  shift_length_unit: ShiftLengthUnit;
  active_period: ActivePeriodView | null;
  /** Usernames of project members, in turn. */
  participants: string[];
}

export interface OncallConfigSchedule {
  name: string;
  description: string | null;
  time_zone: string;
  rotations: OncallConfigRotation[];
}

/** One target of a rule: exactly one of its three keys. */
export interface OncallConfigTarget {
  /** A schedule of this document, by name. */
  schedule?: string;
  /** A project member, by username. */
  user?: string;
  /** A webhook URL (its signing secret is shown once by the policy's API, never in the document). */
  webhook?: string;
}

export interface OncallConfigRule {
  after_minutes: number;
  condition: EscalationCondition;
  targets: OncallConfigTarget[];
}

export interface OncallConfigPolicy {
  repeat: number;
  rules: OncallConfigRule[];
}

/** How a member the policy can page is paged: their own settings (read-only here: each member sets them on their profile). */
export interface OncallConfigUser {
  username: string;
  contact_methods: Array<{ type: ContactMethodType; name: string }>;
  notification_rules: Array<{ contact_method: string; after_minutes: number }>;
  status_notices: boolean;
}

export interface OncallConfigDocument {
  version: number;
  schedules: OncallConfigSchedule[];
  /** Null: no escalation policy. */
  escalation_policy: OncallConfigPolicy | null;
  /** Read-only: given by GET, ignored by PUT. */
  users?: OncallConfigUser[];
}

export const ONCALL_CONFIG_ACTIONS = ['create', 'update', 'delete', 'unchanged'] as const;
export type OncallConfigAction = (typeof ONCALL_CONFIG_ACTIONS)[number];

export const ONCALL_CONFIG_KINDS = ['schedule', 'rotation', 'escalation_policy'] as const;
export type OncallConfigKind = (typeof ONCALL_CONFIG_KINDS)[number];

/** One line of a plan: what applying the document does to one thing, named by its key. */
export type OncallConfigChange = HttpSchemas['OncallConfigChangeDto'];

/** The answer of `PUT .../oncall_config`: the plan, and whether it was applied (not with `dry_run=true`). */
export type OncallConfigResult = HttpSchemas['OncallConfigResultDto'];

/** One problem of a refused document, at its JSON pointer (`/schedules/0/rotations/1/shift_length`). */
export interface OncallConfigError {
  pointer: string;
  message: string;
}
