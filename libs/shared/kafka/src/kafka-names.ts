import { Topic } from '@alert-ingestion/contracts';

/**
 * Every consumer group (and outbox relay position group / transactional id) the services use. A
 * group's physical name carries the per-run prefix like a topic's; some take a suffix of their own
 * (one per registry reader).
 */
export enum ConsumerGroup {
  /** The processor's raw alert consumers, sharing the partitions of alerts.raw.v1. */
  AlertProcessor = 'alert-processor',
  /** The processor's delivery record consumers. */
  AlertProcessorDeliveries = 'alert-processor-deliveries',
  /** The processor's alert email consumers: new and resolved alerts of alerts.events.v1 become notifications. */
  AlertProcessorNotifications = 'alert-processor-notifications',
  /** The processor's alert event outbox relay (position group and transactional id). */
  AlertEventRelay = 'alert-processor-event-relay',
  /** The processor's incident event outbox relay (position group and transactional id). */
  IncidentEventRelay = 'alert-processor-incident-event-relay',
  /** The processor's on-call event outbox relay (position group and transactional id). */
  OncallEventRelay = 'alert-processor-oncall-event-relay',
  /**
   * The processor's alert settings automation: reads alerts.events.v1 to open an incident for a new
   * alert (create_incident) and close one when a recovery payload resolves its alert (auto_close_incident).
   */
  IncidentAutomation = 'alert-processor-incident-automation',
  /** The processor's escalation consumer: new alerts start their project's escalation policy, acknowledgements and resolutions stop it. */
  AlertProcessorEscalations = 'alert-processor-escalations',
  /** integration-config's snapshot outbox relay (position group and transactional id). */
  IntegrationSnapshotRelay = 'integration-config-snapshot-relay',
  /** One group per reader of the integrations topic, suffixed with who reads and a random id. */
  IntegrationsRegistry = 'integrations-registry',
}

/**
 * The physical names of topics and groups for one KAFKA_TOPIC_PREFIX: empty in production; tests
 * set a per-run prefix so that runs never read each other's messages.
 */
export class KafkaNames {
  constructor(readonly prefix = '') {}

  topic(topic: Topic): string {
    return `${this.prefix}${topic}`;
  }

  /** `<prefix><group>[-<suffix>...]`. */
  group(group: ConsumerGroup, ...suffix: string[]): string {
    return [`${this.prefix}${group}`, ...suffix].join('-');
  }
}
