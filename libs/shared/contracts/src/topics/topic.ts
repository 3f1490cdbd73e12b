/**
 * Every Kafka topic the services use. The version suffix is part of the name: a breaking change
 * to a message gets a new topic (`.v2`) so old and new producers never share one.
 */
export enum Topic {
  /** Raw payloads accepted by the gateway, one message per receive request. Key: integration id. */
  RawAlerts = 'alerts.raw.v1',
  /** Raw messages the processor can never handle, with the reason. */
  RawAlertsDeadLetter = 'alerts.raw.v1.dlq',
  /**
   * What the gateway tells the processor about deliveries it does not answer with the processor's
   * result: refusals of a known URL and 202s. Key: integration id. Low volume.
   */
  Deliveries = 'alerts.deliveries.v1',
  /** Delivery records that can never be recorded, with the reason. */
  DeliveriesDeadLetter = 'alerts.deliveries.v1.dlq',
  /** Public alert events for other services (CONTRACT.md "Events"). Key: `<project_id>:<iid>`. */
  AlertEvents = 'alerts.events.v1',
  /** Alert events the outbox relay could not publish after bounded retries, with the reason. */
  AlertEventsDeadLetter = 'alerts.events.v1.dlq',
  /** Public incident events (created, closed, reopened). Key: `<project_id>:<iid>`. */
  IncidentEvents = 'incidents.events.v1',
  /** Incident events the outbox relay could not publish after bounded retries, with the reason. */
  IncidentEventsDeadLetter = 'incidents.events.v1.dlq',
  /**
   * Public on-call events: who is on call in a schedule changed (a handoff, an override starting or
   * ending). One partition; key: `<schedule_id>:<instant>`. Changes come at a human pace.
   */
  OncallEvents = 'oncall.events.v1',
  /** On-call events the outbox relay could not publish after bounded retries, with the reason. */
  OncallEventsDeadLetter = 'oncall.events.v1.dlq',
  /** Compacted: the current state of every integration. Key: integration id; null value = deleted. */
  Integrations = 'integrations.v1',
  /** Integration snapshots the outbox relay could not publish after bounded retries, with the reason. */
  IntegrationsDeadLetter = 'integrations.v1.dlq',
}
