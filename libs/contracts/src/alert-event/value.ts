import { IsDefined, IsIn, IsISO8601, IsObject, IsString } from 'class-validator';
import { AlertView } from '../alert';

export const ALERT_EVENT_TYPES = ['alert.created', 'alert.grouped', 'alert.resolved', 'alert.status_changed'] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** A change to an alert, published once per change (CONTRACT.md "Events for other services"). */
export class AlertEventValue {
  @IsIn(ALERT_EVENT_TYPES)
  type!: AlertEventType;

  @IsISO8601()
  occurred_at!: string;

  @IsString()
  project_id!: string;

  @IsDefined()
  @IsObject()
  alert!: AlertView;
}
