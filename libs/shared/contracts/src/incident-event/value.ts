import { IsDefined, IsIn, IsInt, IsISO8601, IsObject, Min } from 'class-validator';
import { IncidentView } from '../alert';

export const INCIDENT_EVENT_TYPES = ['incident.created', 'incident.closed', 'incident.reopened'] as const;
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];

/** A change to an incident on incidents.events.v1 (docs/api-guide.md "Events"), one per change. */
export class IncidentEventValue {
  @IsIn(INCIDENT_EVENT_TYPES)
  type!: IncidentEventType;

  @IsISO8601()
  occurred_at!: string;

  /** A number, as in the HTTP API (`/projects/:id`). */
  @IsInt()
  @Min(1)
  project_id!: number;

  /** The incident as the API shows it right after the change. */
  @IsDefined()
  @IsObject()
  incident!: IncidentView;
}
