import { IsDefined, IsIn, IsInt, IsISO8601, IsObject, Min } from 'class-validator';
import { AlertView } from '../alert';

export const ALERT_EVENT_TYPES = ['alert.created', 'alert.grouped', 'alert.resolved', 'alert.status_changed'] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** A change to an alert, published once per change (CONTRACT.md "Events for other services"). */
export class AlertEventValue {
  @IsIn(ALERT_EVENT_TYPES)
  type!: AlertEventType;

  @IsISO8601()
  occurred_at!: string;

  /** A number, as in the HTTP API (`/projects/:id`). */
  @IsInt()
  @Min(1)
  project_id!: number;

  @IsDefined()
  @IsObject()
  alert!: AlertView;
}
