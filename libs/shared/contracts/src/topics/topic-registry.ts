import { decodeMessage, encodeMessage, validateMessage } from '../decode-message';
import * as AlertEvent from '../alert-event';
import { encodeAlertEvent } from '../alert-event/value';
import * as DeadLetter from '../dead-letter';
import * as DeliveryRecord from '../delivery-record';
import * as IncidentEvent from '../incident-event';
import * as OncallEvent from '../oncall-event';
import * as IntegrationSnapshot from '../integration-snapshot';
import * as OutboxDeadLetter from '../outbox-dead-letter';
import * as RawAlert from '../raw-alert';
import { encodeRawAlert } from '../raw-alert/value';
import { MAX_MESSAGE_BYTES } from './message-size';
import { Topic } from './topic';

type MessageClass<T> = new () => T;

/**
 * A topic bound to its contracts: its layout (for ensureTopics), how its key reads and how its
 * value is decoded (validated against its class) and encoded. The one place that says what a topic
 * carries and how its bytes look; producers and consumers of libs/shared/kafka go through it, so no
 * service encodes or parses a message value by hand.
 *
 * `Outgoing` is what a producer gives (the value, or a form the topic's encoding takes faster, like
 * a raw alert's envelope and verbatim body); `Encoded` what goes on the wire (JSON text, or bytes).
 */
export interface TopicBinding<Key, Value extends object, Outgoing = Value, Encoded extends Buffer | string = Buffer | string> {
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
  /** Parses and validates a value; throws ContractViolationError with the reason (and what parsed, if anything). */
  decode(raw: Buffer | string | null): Value;
  encode(value: Outgoing): Encoded;
}

interface BindingOptions<Outgoing, Encoded> {
  partitions: number;
  compacted?: boolean;
  /** The topic's own encoding; default: the value as JSON text, unchecked (the producer's types vouch for it). */
  encode?: (value: Outgoing) => Encoded;
}

function binding<Key extends string | null, Value extends object, Outgoing = Value, Encoded extends Buffer | string = string>(
  topic: Topic,
  value: MessageClass<Value>,
  options: BindingOptions<Outgoing, Encoded>,
): TopicBinding<Key, Value, Outgoing, Encoded> {
  return {
    topic,
    partitions: options.partitions,
    compacted: options.compacted ?? false,
    maxMessageBytes: MAX_MESSAGE_BYTES,
    value,
    encodeKey: (key) => key,
    decodeKey: (raw) => (raw === null || raw === undefined ? null : (raw.toString() as Key)),
    decode: (raw) => decodeMessage(value, raw),
    encode: options.encode ?? ((message) => encodeMessage(message as object) as Encoded),
  };
}

/**
 * Every topic with its key and value contracts. Partition counts are explicit so that every
 * environment gets the same layout; every topic takes records up to MAX_MESSAGE_BYTES, whatever the
 * broker's default, so sizes agree end to end. The processor's dead-letter topics carry no key; an
 * outbox's carry the key of the record they stand for.
 */
export const TOPIC_REGISTRY = {
  // The body spliced in verbatim (encodeRawAlert): never parsed and printed again on the hot path.
  [Topic.RawAlerts]: binding<RawAlert.RawAlertKey, RawAlert.RawAlertValue, RawAlert.RawAlertOutgoing, Buffer>(Topic.RawAlerts, RawAlert.RawAlertValue, {
    partitions: 12,
    encode: (value) => ('envelope' in value ? encodeRawAlert(value.envelope, value.body) : Buffer.from(encodeMessage(value))),
  }),
  [Topic.RawAlertsDeadLetter]: binding<null, DeadLetter.DeadLetterValue>(Topic.RawAlertsDeadLetter, DeadLetter.DeadLetterValue, { partitions: 1 }),
  [Topic.Deliveries]: binding<string, DeliveryRecord.DeliveryRecordValue>(Topic.Deliveries, DeliveryRecord.DeliveryRecordValue, { partitions: 3 }),
  [Topic.DeliveriesDeadLetter]: binding<null, DeadLetter.DeadLetterValue>(Topic.DeliveriesDeadLetter, DeadLetter.DeadLetterValue, { partitions: 1 }),
  // Always fits the topic: a payload too large for it is left out (encodeAlertEvent).
  [Topic.AlertEvents]: binding<AlertEvent.AlertEventKey, AlertEvent.AlertEventValue>(Topic.AlertEvents, AlertEvent.AlertEventValue, {
    partitions: 12,
    encode: (value) => encodeAlertEvent(value).text,
  }),
  [Topic.AlertEventsDeadLetter]: binding<string, OutboxDeadLetter.OutboxDeadLetterValue>(Topic.AlertEventsDeadLetter, OutboxDeadLetter.OutboxDeadLetterValue, {
    partitions: 1,
  }),
  [Topic.IncidentEvents]: binding<IncidentEvent.IncidentEventKey, IncidentEvent.IncidentEventValue>(Topic.IncidentEvents, IncidentEvent.IncidentEventValue, {
    partitions: 3,
  }),
  [Topic.IncidentEventsDeadLetter]: binding<string, OutboxDeadLetter.OutboxDeadLetterValue>(
    Topic.IncidentEventsDeadLetter,
    OutboxDeadLetter.OutboxDeadLetterValue,
    { partitions: 1 },
  ),
  [Topic.OncallEvents]: binding<OncallEvent.OncallEventKey, OncallEvent.OncallEventValue>(Topic.OncallEvents, OncallEvent.OncallEventValue, { partitions: 1 }),
  [Topic.OncallEventsDeadLetter]: binding<string, OutboxDeadLetter.OutboxDeadLetterValue>(Topic.OncallEventsDeadLetter, OutboxDeadLetter.OutboxDeadLetterValue, {
    partitions: 1,
  }),
  // Checked on the way out: a snapshot its readers would refuse is refused at its writer instead.
  // Integration changes are few, so the check costs nothing that matters.
  [Topic.Integrations]: binding<IntegrationSnapshot.IntegrationSnapshotKey, IntegrationSnapshot.IntegrationSnapshotValue>(
    Topic.Integrations,
    IntegrationSnapshot.IntegrationSnapshotValue,
    { partitions: 1, compacted: true, encode: (value) => encodeMessage(validateMessage(IntegrationSnapshot.IntegrationSnapshotValue, value)) },
  ),
  [Topic.IntegrationsDeadLetter]: binding<string, OutboxDeadLetter.OutboxDeadLetterValue>(
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
