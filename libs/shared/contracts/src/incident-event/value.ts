import { IsDefined, IsIn, IsObject } from 'class-validator';
import { IncidentView } from '../alert';
import { ProjectEventFields } from '../project-event';

export const INCIDENT_EVENT_TYPES = ['incident.created', 'incident.closed', 'incident.reopened'] as const;
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];

/** A change to an incident on incidents.events.v1 (docs/api-guide.md "Events"), one per change. */
export class IncidentEventValue extends ProjectEventFields {
  @IsIn(INCIDENT_EVENT_TYPES)
  type!: IncidentEventType;

  /** The incident as the API shows it right after the change. */
  @IsDefined()
  @IsObject()
  incident!: IncidentView;
}
