/**
 * Every Kafka topic the services use, by its name. The version suffix is part of the name: a
 * breaking change to a message gets a new topic (`.v2`) so old and new producers never share one.
 * What each topic carries, its key, who writes and reads it: TOPIC_REGISTRY.
 */
export enum Topic {
  RawAlerts = 'alerts.raw.v1',
  RawAlertsDeadLetter = 'alerts.raw.v1.dlq',
  Deliveries = 'alerts.deliveries.v1',
  DeliveriesDeadLetter = 'alerts.deliveries.v1.dlq',
  AlertEvents = 'alerts.events.v1',
  AlertEventsDeadLetter = 'alerts.events.v1.dlq',
  IncidentEvents = 'incidents.events.v1',
  IncidentEventsDeadLetter = 'incidents.events.v1.dlq',
  OncallEvents = 'oncall.events.v1',
  OncallEventsDeadLetter = 'oncall.events.v1.dlq',
  /** Compacted. */
  Integrations = 'integrations.v1',
  IntegrationsDeadLetter = 'integrations.v1.dlq',
}
