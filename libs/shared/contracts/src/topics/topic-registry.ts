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
import { projectEventHeaders, ProjectEventAttributes } from './cloud-events';
import { MAX_MESSAGE_BYTES } from './message-size';
import { Topic } from './topic';
import { TopicExample } from './topic-example';

type MessageClass<T> = new () => T;

/**
 * Who reads a topic. `public`: other services subscribe (docs/consuming-events.md), every record
 * carries CloudEvents headers, and its schema changes only compatibly (a breaking change is a new
 * topic version); `internal`: the services' own traffic; `dead-letter`: what could not be published
 * or processed, with the reason.
 */
export type TopicAudience = 'public' | 'internal' | 'dead-letter';

/** The services, as the AsyncAPI document names the producers and consumers of each topic. */
export type ServiceName = 'gateway' | 'alert-processor' | 'integration-config';

/** What the AsyncAPI document (docs/asyncapi) says of a topic besides its layout and schema. */
export interface TopicDescription<Value> {
  audience: TopicAudience;
  /** What a record stands for. */
  summary: string;
  /** What the key is (null: the topic's records carry none). */
  key: string | null;
  producer: ServiceName;
  consumers: readonly ServiceName[];
  examples: ReadonlyArray<TopicExample<Value>>;
}

/**
 * A topic bound to its contracts: its layout (for ensureTopics), how its key reads and how its
 * value is decoded (validated against its class) and encoded. The one place that says what a topic
 * carries and how its bytes look; producers and consumers of libs/shared/kafka go through it, so no
 * service encodes or parses a message value by hand.
 *
 * `Outgoing` is what a producer gives (the value, or a form the topic's encoding takes faster, like
 * a raw alert's envelope and verbatim body); `Encoded` what goes on the wire (JSON text, or bytes).
 */
export interface TopicBinding<Key, Value extends object, Outgoing = Value, Encoded extends Buffer | string = Buffer | string> extends TopicDescription<Value> {
  readonly topic: Topic;
  readonly partitions: number;
  readonly compacted: boolean;
  /** The topic's `retention.ms` when the services create it; null for a compacted topic (kept until replaced). */
  readonly retentionMs: number | null;
  /** The topic's `max.message.bytes`. */
  readonly maxMessageBytes: number;
  /** The class of the value (class-validator rules; its TypeScript type is the schema's source). */
  readonly value: MessageClass<Value>;
  /** The key as written (null: the topic's messages carry none). */
  encodeKey(key: Key): string | null;
  decodeKey(raw: Buffer | string | null | undefined): Key | null;
  /** Parses and validates a value; throws ContractViolationError with the reason (and what parsed, if anything). */
  decode(raw: Buffer | string | null): Value;
  encode(value: Outgoing): Encoded;
  /**
   * The headers a record of this value is written with: the CloudEvents attributes on a public
   * topic (a new `ce_id` each call: call it once per record, where the record is written), none otherwise.
   */
  headers(value: Outgoing): Record<string, string>;
}

interface BindingOptions<Value, Outgoing, Encoded> extends TopicDescription<Value> {
  partitions: number;
  compacted?: boolean;
  /** The topic's own encoding; default: the value as JSON text, unchecked (the producer's types vouch for it). */
  encode?: (value: Outgoing) => Encoded;
}

/** What Kafka keeps of a topic that is not compacted: a week, its default, written out so every environment has it. */
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

function binding<Key extends string | null, Value extends object, Outgoing = Value, Encoded extends Buffer | string = string>(
  topic: Topic,
  value: MessageClass<Value>,
  options: BindingOptions<Value, Outgoing, Encoded>,
): TopicBinding<Key, Value, Outgoing, Encoded> {
  const { partitions, compacted = false, encode, ...description } = options;
  return {
    ...description,
    topic,
    partitions,
    compacted,
    retentionMs: compacted ? null : RETENTION_MS,
    maxMessageBytes: MAX_MESSAGE_BYTES,
    value,
    encodeKey: (key) => key,
    decodeKey: (raw) => (raw === null || raw === undefined ? null : (raw.toString() as Key)),
    decode: (raw) => decodeMessage(value, raw),
    encode: encode ?? ((message) => encodeMessage(message as object) as Encoded),
    headers: (message) => (description.audience === 'public' ? projectEventHeaders(message as ProjectEventAttributes) : {}),
  };
}

/** A public topic's dead letters: its records an outbox relay could not publish, keyed as they were. */
function outboxDeadLetters(topic: Topic, of: Topic, producer: ServiceName): TopicBinding<string, OutboxDeadLetter.OutboxDeadLetterValue, OutboxDeadLetter.OutboxDeadLetterValue, string> {
  return binding<string, OutboxDeadLetter.OutboxDeadLetterValue>(topic, OutboxDeadLetter.OutboxDeadLetterValue, {
    partitions: 1,
    audience: 'dead-letter',
    summary: `Records of ${of} its outbox relay could not publish after bounded retries (larger than the topic takes, for one), with the reason; the records after them went on.`,
    key: `The key the record had on ${of}.`,
    producer,
    consumers: [],
    examples: OutboxDeadLetter.OUTBOX_DEAD_LETTER_EXAMPLES,
  });
}

/** A consumed topic's dead letters: its messages the processor can never handle, with the reason. */
function consumerDeadLetters(topic: Topic, of: Topic): TopicBinding<null, DeadLetter.DeadLetterValue, DeadLetter.DeadLetterValue, string> {
  return binding<null, DeadLetter.DeadLetterValue>(topic, DeadLetter.DeadLetterValue, {
    partitions: 1,
    audience: 'dead-letter',
    summary: `Messages of ${of} the processor can never handle (not JSON, not the contract), with the reason and the original value.`,
    key: null,
    producer: 'alert-processor',
    consumers: [],
    examples: DeadLetter.DEAD_LETTER_EXAMPLES,
  });
}

/**
 * Every topic with its key and value contracts, what it is for and examples. Partition counts are
 * explicit so that every environment gets the same layout; every topic takes records up to
 * MAX_MESSAGE_BYTES, whatever the broker's default, so sizes agree end to end. The processor's
 * dead-letter topics carry no key; an outbox's carry the key of the record they stand for.
 *
 * A topic added here is in the AsyncAPI document and its schemas once `npm run asyncapi` has run
 * (tools/asyncapi; `npm test` fails until then).
 */
export const TOPIC_REGISTRY = {
  // The body spliced in verbatim (encodeRawAlert): never parsed and printed again on the hot path.
  [Topic.RawAlerts]: binding<RawAlert.RawAlertKey, RawAlert.RawAlertValue, RawAlert.RawAlertOutgoing, Buffer>(Topic.RawAlerts, RawAlert.RawAlertValue, {
    partitions: 12,
    encode: (value) => ('envelope' in value ? encodeRawAlert(value.envelope, value.body) : Buffer.from(encodeMessage(value))),
    audience: 'internal',
    summary: 'Every request to an integration URL the gateway accepted: the authenticated integration and the body exactly as sent, for the processor to turn into alerts.',
    key: 'The integration id, so that one integration\'s payloads stay in order.',
    producer: 'gateway',
    consumers: ['alert-processor'],
    examples: RawAlert.RAW_ALERT_EXAMPLES,
  }),
  [Topic.RawAlertsDeadLetter]: consumerDeadLetters(Topic.RawAlertsDeadLetter, Topic.RawAlerts),
  [Topic.Deliveries]: binding<string, DeliveryRecord.DeliveryRecordValue>(Topic.Deliveries, DeliveryRecord.DeliveryRecordValue, {
    partitions: 3,
    audience: 'internal',
    summary: 'Deliveries to a known integration URL the processor does not answer itself: refusals (400, 401, 413, 429) and 202s. Never a credential.',
    key: 'The integration id.',
    producer: 'gateway',
    consumers: ['alert-processor'],
    examples: DeliveryRecord.DELIVERY_RECORD_EXAMPLES,
  }),
  [Topic.DeliveriesDeadLetter]: consumerDeadLetters(Topic.DeliveriesDeadLetter, Topic.Deliveries),
  // Always fits the topic: a payload too large for it is left out (encodeAlertEvent).
  [Topic.AlertEvents]: binding<AlertEvent.AlertEventKey, AlertEvent.AlertEventValue>(Topic.AlertEvents, AlertEvent.AlertEventValue, {
    partitions: 12,
    encode: (value) => encodeAlertEvent(value).text,
    audience: 'public',
    summary: 'Every change to an alert, once per change, in order per alert: created, grouped, resolved, status changed, assigned. An alert whose payload would not fit the topic comes without it (`alert.payload_truncated: true`).',
    key: '`<project_id>:<iid>`: every event of one alert is in one partition, in order.',
    producer: 'alert-processor',
    consumers: ['alert-processor'],
    examples: AlertEvent.ALERT_EVENT_EXAMPLES,
  }),
  [Topic.AlertEventsDeadLetter]: outboxDeadLetters(Topic.AlertEventsDeadLetter, Topic.AlertEvents, 'alert-processor'),
  [Topic.IncidentEvents]: binding<IncidentEvent.IncidentEventKey, IncidentEvent.IncidentEventValue>(Topic.IncidentEvents, IncidentEvent.IncidentEventValue, {
    partitions: 3,
    audience: 'public',
    summary: 'Every change to an incident, once per change, in order per incident: created, closed, reopened.',
    key: '`<project_id>:<iid>`: every event of one incident is in one partition, in order.',
    producer: 'alert-processor',
    consumers: [],
    examples: IncidentEvent.INCIDENT_EVENT_EXAMPLES,
  }),
  [Topic.IncidentEventsDeadLetter]: outboxDeadLetters(Topic.IncidentEventsDeadLetter, Topic.IncidentEvents, 'alert-processor'),
  [Topic.OncallEvents]: binding<OncallEvent.OncallEventKey, OncallEvent.OncallEventValue>(Topic.OncallEvents, OncallEvent.OncallEventValue, {
    partitions: 1,
    audience: 'public',
    summary: 'Every change of who is on call in a schedule (a handoff, an override starting or ending), once per change, in order.',
    key: '`<schedule_id>:<instant>`: the change it stands for. One partition: changes come at a human pace.',
    producer: 'alert-processor',
    consumers: [],
    examples: OncallEvent.ONCALL_EVENT_EXAMPLES,
  }),
  [Topic.OncallEventsDeadLetter]: outboxDeadLetters(Topic.OncallEventsDeadLetter, Topic.OncallEvents, 'alert-processor'),
  // Checked on the way out: a snapshot its readers would refuse is refused at its writer instead.
  // Integration changes are few, so the check costs nothing that matters.
  [Topic.Integrations]: binding<IntegrationSnapshot.IntegrationSnapshotKey, IntegrationSnapshot.IntegrationSnapshotValue>(
    Topic.Integrations,
    IntegrationSnapshot.IntegrationSnapshotValue,
    {
      partitions: 1,
      compacted: true,
      encode: (value) => encodeMessage(validateMessage(IntegrationSnapshot.IntegrationSnapshotValue, value)),
      audience: 'internal',
      summary: 'The current state of every integration (compacted: the latest record of each key), for the gateway and the processor; a null value (tombstone) when it was deleted. The authorization key never travels, only its SHA-256.',
      key: 'The integration id.',
      producer: 'integration-config',
      consumers: ['gateway', 'alert-processor'],
      examples: IntegrationSnapshot.INTEGRATION_SNAPSHOT_EXAMPLES,
    },
  ),
  [Topic.IntegrationsDeadLetter]: outboxDeadLetters(Topic.IntegrationsDeadLetter, Topic.Integrations, 'integration-config'),
} as const satisfies Record<Topic, { readonly topic: Topic }>;

export interface TopicSpec {
  topic: Topic;
  partitions: number;
  compacted: boolean;
  /** The topic's `retention.ms` when created; null or absent: the broker's (a compacted topic keeps each key's latest). */
  retentionMs?: number | null;
  /** The topic's `max.message.bytes`. */
  maxMessageBytes: number;
}

/** The layout of every topic, in TOPIC_REGISTRY order (what ensureTopics creates). */
export const TOPIC_SPECS: readonly TopicSpec[] = Object.values(TOPIC_REGISTRY).map(({ topic, partitions, compacted, retentionMs, maxMessageBytes }) => ({
  topic,
  partitions,
  compacted,
  retentionMs,
  maxMessageBytes,
}));
