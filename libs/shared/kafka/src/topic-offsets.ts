import { Admin, KafkaJSError } from 'kafkajs';

/** The offsets of every partition of a topic, as kafkajs's admin reports them. */
export type TopicOffsets = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

/**
 * kafkajs's admin.fetchTopicOffsets lists the partitions its cached metadata knows; when that holds
 * no partition of the topic it fails with a TypeError of its own ("Cannot destructure property
 * 'partitions' of 'high.pop(...)'"), not a retriable error. On a cluster of several brokers that is
 * routine: a new topic reaches each broker's metadata at its own pace, and the broker asked may not
 * know it yet.
 */
function isMetadataWithoutTopic(error: unknown): boolean {
  return error instanceof TypeError && /\b(high|low)\.pop\(/.test(error.message);
}

/**
 * admin.fetchTopicOffsets, with a topic missing from the broker's metadata reported as the
 * retriable KafkaJSError it is (callers retry those), and the partitions in order.
 */
export async function fetchTopicOffsets(admin: Admin, topic: string): Promise<TopicOffsets> {
  try {
    return (await admin.fetchTopicOffsets(topic)).sort((a, b) => a.partition - b.partition);
  } catch (error) {
    if (isMetadataWithoutTopic(error)) throw new KafkaJSError(`The broker's metadata does not list ${topic} yet`, { retriable: true });
    throw error;
  }
}
