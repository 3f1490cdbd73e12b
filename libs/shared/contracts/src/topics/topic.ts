import { MAX_MESSAGE_BYTES } from './message-size';

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
  /** Processing results sent back to the gateway instance waiting for them. Key: gateway instance id. */
  AlertReplies = 'alerts.replies.v1',
  /** Public alert events for other services (CONTRACT.md "Events"). Key: `<project_id>:<iid>`. */
  AlertEvents = 'alerts.events.v1',
  /** Alert events the outbox relay could not publish after bounded retries, with the reason. */
  AlertEventsDeadLetter = 'alerts.events.v1.dlq',
  /** Compacted: the current state of every integration. Key: integration id; null value = deleted. */
  Integrations = 'integrations.v1',
  /** Integration snapshots the outbox relay could not publish after bounded retries, with the reason. */
  IntegrationsDeadLetter = 'integrations.v1.dlq',
}

export interface TopicSpec {
  topic: Topic;
  partitions: number;
  compacted: boolean;
  /** The topic's `max.message.bytes`. */
  maxMessageBytes: number;
}

/**
 * Partition counts are explicit so that every environment gets the same layout; every topic takes
 * records up to MAX_MESSAGE_BYTES, whatever the broker's default, so sizes agree end to end.
 */
export const TOPIC_SPECS: readonly TopicSpec[] = [
  { topic: Topic.RawAlerts, partitions: 12, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.RawAlertsDeadLetter, partitions: 1, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.AlertReplies, partitions: 12, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.Deliveries, partitions: 3, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.DeliveriesDeadLetter, partitions: 1, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.AlertEvents, partitions: 12, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.AlertEventsDeadLetter, partitions: 1, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.Integrations, partitions: 1, compacted: true, maxMessageBytes: MAX_MESSAGE_BYTES },
  { topic: Topic.IntegrationsDeadLetter, partitions: 1, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES },
];

/**
 * The physical topic name. `prefix` (KAFKA_TOPIC_PREFIX) is empty in production; tests set a per-run
 * prefix so that runs never read each other's messages.
 */
export function topicName(topic: Topic, prefix = ''): string {
  return `${prefix}${topic}`;
}
