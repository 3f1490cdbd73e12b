/**
 * The HTTP views that Kafka events carry are written out as TypeScript (alert/alert-view.ts,
 * alert/incident.ts, alert/silence.ts, oncall/oncall-schedule.ts) and are not aliases of the generated
 * schemas (./http), because tools/asyncapi generates the event schemas from them with
 * ts-json-schema-generator, which reads openapi-typescript's `components["schemas"]["..."]` wrongly
 * (a nested reference becomes the whole `components`). Each must still be its schema: property for
 * property, required for required, null for null. Checked by `npm run typecheck`.
 */
import type { HttpSchemas } from './http';
import type { AlertAssignee, AlertSilence, AlertView, IncidentCreator, IncidentView } from './alert';
import type { OncallRotationRef, OncallScheduleRef, OncallUser, OnCallMemberView, OnCallReasonView } from './oncall';

/** The property names of an object type (none for arrays and scalars). */
type Keys<T> = T extends readonly unknown[] ? never : T extends object ? keyof T : never;

/**
 * `true` when A and B name the same properties, at every depth: an optional property one has and
 * the other lacks leaves the two assignable to each other, so it is compared by name.
 */
type SameKeys<A, B> = [A] extends [readonly (infer ItemA)[]]
  ? [B] extends [readonly (infer ItemB)[]]
    ? SameKeys<ItemA, ItemB>
    : false
  : [Keys<A>] extends [Keys<B>]
    ? [Keys<B>] extends [Keys<A>]
      ? [{ [K in Keys<A> & Keys<B>]: SameKeys<NonNullable<A[K & keyof A]>, NonNullable<B[K & keyof B]>> }[Keys<A> & Keys<B>]] extends [true]
        ? true
        : false
      : false
    : false;

/** `true` when A and B are the same shape: the same values, under the same property names. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;

/**
 * Per written-out view, `true`: one that says other than its schema fails to compile here, named.
 * An alert's `payload` is `unknown` in events (any JSON, as the event schemas have always said),
 * the JSON value types in the document.
 */
export const EVENT_VIEWS_ARE_SCHEMAS: {
  AlertView: Same<Omit<AlertView, 'payload'>, Omit<HttpSchemas['AlertDto'], 'payload'>>;
  AlertAssignee: Same<AlertAssignee, HttpSchemas['AlertAssigneeDto']>;
  AlertSilence: Same<AlertSilence, HttpSchemas['AlertSilenceDto']>;
  IncidentView: Same<IncidentView, HttpSchemas['IncidentDto']>;
  IncidentCreator: Same<IncidentCreator, HttpSchemas['UserIncidentCreatorDto'] | HttpSchemas['AlertIncidentCreatorDto']>;
  OncallUser: Same<OncallUser, HttpSchemas['OncallUserDto']>;
  OncallRotationRef: Same<OncallRotationRef, HttpSchemas['OncallRotationRefDto']>;
  OnCallReasonView: Same<OnCallReasonView, HttpSchemas['OnCallReasonDto']>;
  OnCallMemberView: Same<OnCallMemberView, HttpSchemas['OnCallMemberDto']>;
  OncallScheduleRef: Same<OncallScheduleRef, HttpSchemas['OncallScheduleRefDto']>;
} = {
  AlertView: true,
  AlertAssignee: true,
  AlertSilence: true,
  IncidentView: true,
  IncidentCreator: true,
  OncallUser: true,
  OncallRotationRef: true,
  OnCallReasonView: true,
  OnCallMemberView: true,
  OncallScheduleRef: true,
};
