import { IsArray, IsDefined, IsIn, IsObject } from 'class-validator';
import { OncallScheduleRef, OncallUser, OnCallMemberView } from '../oncall';
import { ProjectEventFields } from '../project-event';

export const ONCALL_EVENT_TYPES = ['oncall.shift_started'] as const;
export type OncallEventType = (typeof ONCALL_EVENT_TYPES)[number];

/**
 * A change of who is on call in a schedule (a handoff, or an override starting or ending) on
 * oncall.events.v1 (docs/api-guide.md "On-call events"), once per change; `occurred_at` is the
 * instant of the change.
 */
export class OncallEventValue extends ProjectEventFields {
  @IsIn(ONCALL_EVENT_TYPES)
  type!: OncallEventType;

  @IsDefined()
  @IsObject()
  schedule!: OncallScheduleRef;

  /** Who is on call from `occurred_at` on, and why (empty: nobody). */
  @IsArray()
  on_call!: OnCallMemberView[];

  /** Who was on call just before. */
  @IsArray()
  previous!: OncallUser[];
}
