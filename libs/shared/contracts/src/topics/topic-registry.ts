import { decodeMessage, encodeMessage } from '../decode-message';
import * as AlertEvent from '../alert-event';
import * as AlertReply from '../alert-reply';
import * as DeadLetter from '../dead-letter';
import * as DeliveryRecord from '../delivery-record';
import * as IntegrationSnapshot from '../integration-snapshot';
import * as OutboxDeadLetter from '../outbox-dead-letter';
import * as RawAlert from '../raw-alert';
import { MAX_MESSAGE_BYTES } from './message-size';
import { Topic } from './topic';

type MessageClass<T> = new () => T;

/**
 * A topic bound to its contracts: its layout (for ensureTopics), how its key reads and how its
 * value is decoded (validated against its class) and encoded. The one place that says what a topic
 * carries; consumers and producers go through it instead of naming a value class themselves.
 */
export interface TopicBinding<Key, Value extends object> {
  readonly topic: Topic;
  readonly partitions: number;
  readonly compacted: boolean;
  /** The topic's `max.message.bytes`. */
  readonly maxMessageBytes: number;
  /** The class of the value (class-validator rules). */
  readonly value: MessageClass<Value>;
  /** The key as written (null: the topic's messages carry none). */
  encodeKey(key: Key): string | null;
  decodeKey(raw: Buffer | string | null | undefined): Key | null;
  /** Parses and validates a value; throws ContractViolationError with the reason. */
  decode(raw: Buffer | string | null): Value;
  encode(value: Value): Buffer;
}

function binding<Key extends string | null, Value extends object>(
  topic: Topic,
  value: MessageClass<Value>,
  layout: { partitions: number; compacted?: boolean },
): TopicBinding<Key, Value> {
  return {
    topic,
    partitions: layout.partitions,
    compacted: layout.compacted ?? false,
    maxMessageBytes: MAX_MESSAGE_BYTES,
    value,
    encodeKey: (key) => key,
    decodeKey: (raw) => (raw === null || raw === undefined ? null : (raw.toString() as Key)),
    decode: (raw) => decodeMessage(value, raw),
    encode: (message) => encodeMessage(message),
  };
}

/**
 * Every topic with its key and value contracts. Partition counts are explicit so that every
 * environment gets the same layout; every topic takes records up to MAX_MESSAGE_BYTES, whatever the
 * broker's default, so sizes agree end to end. Dead-letter topics carry no key.
 */
export const TOPIC_REGISTRY = {
  [Topic.RawAlerts]: binding<RawAlert.RawAlertKey, RawAlert.RawAlertValue>(Topic.RawAlerts, RawAlert.RawAlertValue, { partitions: 12 }),
  [Topic.RawAlertsDeadLetter]: binding<null, DeadLetter.DeadLetterValue>(Topic.RawAlertsDeadLetter, DeadLetter.DeadLetterValue, { partitions: 1 }),
  [Topic.AlertReplies]: binding<AlertReply.AlertReplyKey, AlertReply.AlertReplyValue>(Topic.AlertReplies, AlertReply.AlertReplyValue, { partitions: 12 }),
  [Topic.Deliveries]: binding<string, DeliveryRecord.DeliveryRecordValue>(Topic.Deliveries, DeliveryRecord.DeliveryRecordValue, { partitions: 3 }),
  [Topic.DeliveriesDeadLetter]: binding<null, DeadLetter.DeadLetterValue>(Topic.DeliveriesDeadLetter, DeadLetter.DeadLetterValue, { partitions: 1 }),
  [Topic.AlertEvents]: binding<AlertEvent.AlertEventKey, AlertEvent.AlertEventValue>(Topic.AlertEvents, AlertEvent.AlertEventValue, { partitions: 12 }),
  [Topic.AlertEventsDeadLetter]: binding<null, OutboxDeadLetter.OutboxDeadLetterValue>(Topic.AlertEventsDeadLetter, OutboxDeadLetter.OutboxDeadLetterValue, {
    partitions: 1,
  }),
  [Topic.Integrations]: binding<IntegrationSnapshot.IntegrationSnapshotKey, IntegrationSnapshot.IntegrationSnapshotValue>(
    Topic.Integrations,
    IntegrationSnapshot.IntegrationSnapshotValue,
    { partitions: 1, compacted: true },
  ),
  [Topic.IntegrationsDeadLetter]: binding<null, OutboxDeadLetter.OutboxDeadLetterValue>(
    Topic.IntegrationsDeadLetter,
    OutboxDeadLetter.OutboxDeadLetterValue,
    { partitions: 1 },
  ),
} as const satisfies Record<Topic, { readonly topic: Topic }>;

export interface TopicSpec {
  topic: Topic;
  partitions: number;
  compacted: boolean;
  /** The topic's `max.message.bytes`. */
  maxMessageBytes: number;
}

/** The layout of every topic, in TOPIC_REGISTRY order (what ensureTopics creates). */
export const TOPIC_SPECS: readonly TopicSpec[] = Object.values(TOPIC_REGISTRY).map(({ topic, partitions, compacted, maxMessageBytes }) => ({
  topic,
  partitions,
  compacted,
  maxMessageBytes,
}));
