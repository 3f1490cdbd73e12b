import { Topic, TOPIC_REGISTRY, TopicBinding } from '@alert-ingestion/contracts';
import { IHeaders, Message } from 'kafkajs';

type Registry = typeof TOPIC_REGISTRY;

/** The key of a topic's messages, as TOPIC_REGISTRY types it. */
export type TopicKey<T extends Topic> = Parameters<Registry[T]['encodeKey']>[0];
/** What a producer gives for a topic's value (TOPIC_REGISTRY encodes it). */
export type TopicOutgoing<T extends Topic> = Parameters<Registry[T]['encode']>[0];
/** A topic's decoded value (TOPIC_REGISTRY decodes and validates it). */
export type TopicValue<T extends Topic> = ReturnType<Registry[T]['decode']>;

/** One message for a topic, typed by the registry; a null value is a tombstone (compacted topics). */
export interface TopicMessage<T extends Topic> {
  key: TopicKey<T>;
  value: TopicOutgoing<T> | null;
  headers?: IHeaders;
}

/** A topic's binding with the types of one topic, for code generic over topics. */
export type BindingOf<T extends Topic> = TopicBinding<TopicKey<T>, TopicValue<T> & object, TopicOutgoing<T>>;

export function bindingOf<T extends Topic>(topic: T): BindingOf<T> {
  return TOPIC_REGISTRY[topic] as unknown as BindingOf<T>;
}

/** Messages as kafkajs sends them, keys and values encoded by the topic's binding: the only place producers make bytes. */
export function encodeMessages<T extends Topic>(topic: T, messages: readonly TopicMessage<T>[]): Message[] {
  const binding = bindingOf(topic);
  return messages.map(({ key, value, headers }) => ({
    key: binding.encodeKey(key),
    value: value === null ? null : binding.encode(value),
    ...(headers === undefined ? {} : { headers }),
  }));
}
