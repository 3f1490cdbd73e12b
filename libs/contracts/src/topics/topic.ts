/**
 * Every Kafka topic the services use. The version suffix is part of the name: a breaking change
 * to a message gets a new topic (`.v2`) so old and new producers never share one.
 */
export enum Topic {
  /** Raw payloads accepted by the gateway, one message per receive request. Key: integration id. */
  RawAlerts = 'alerts.raw.v1',
  /** Raw messages the processor can never handle, with the reason. */
  RawAlertsDeadLetter = 'alerts.raw.v1.dlq',
  /** Processing results sent back to the gateway instance waiting for them. Key: gateway instance id. */
  AlertReplies = 'alerts.replies.v1',
  /** Public alert events for other services (CONTRACT.md "Events"). Key: `<project_id>:<iid>`. */
  AlertEvents = 'alerts.events.v1',
  /** Compacted: the current state of every integration. Key: integration id; null value = deleted. */
  Integrations = 'integrations.v1',
}

export interface TopicSpec {
  topic: Topic;
  partitions: number;
  compacted: boolean;
}

/** Partition counts are explicit so that every environment gets the same layout. */
export const TOPIC_SPECS: readonly TopicSpec[] = [
  { topic: Topic.RawAlerts, partitions: 12, compacted: false },
  { topic: Topic.RawAlertsDeadLetter, partitions: 1, compacted: false },
  { topic: Topic.AlertReplies, partitions: 12, compacted: false },
  { topic: Topic.AlertEvents, partitions: 12, compacted: false },
  { topic: Topic.Integrations, partitions: 1, compacted: true },
];

/**
 * The physical topic name. `prefix` (KAFKA_TOPIC_PREFIX) is empty in production; tests set a per-run
 * prefix so that runs never read each other's messages.
 */
export function topicName(topic: Topic, prefix = ''): string {
  return `${prefix}${topic}`;
}
