import { ICustomPartitioner, KafkaJSError, Message, Partitioners, RecordMetadata, TopicMessages } from 'kafkajs';

/**
 * kafkajs's DefaultPartitioner (Java-compatible murmur2 on the key, so a key maps to the same
 * partition as with any Java client), remembering the partition it chose for each message, so
 * that sendAcknowledged can tell which messages an answer covers. One per kafkajs producer.
 */
export class PartitionRecorder {
  private readonly partitions = new WeakMap<Message, number>();

  readonly createPartitioner: ICustomPartitioner = () => {
    const partitioner = Partitioners.DefaultPartitioner();
    return (args) => {
      const partition = partitioner(args);
      this.partitions.set(args.message, partition);
      return partition;
    };
  };

  /** The partition the message was last given (undefined before it was sent). */
  partitionOf(message: Message): number | undefined {
    return this.partitions.get(message);
  }
}

/** How many times sendAcknowledged sends messages whose partition the answer left out. */
const MAX_SENDS = 4;

const partitionKey = (topic: string, partition: number | undefined) => `${topic}\u0000${partition ?? -1}`;

/**
 * Sends messages and resolves once an answer acknowledged the partition of every one of them.
 *
 * kafkajs 2.2.4 answers a send from each leader's response, and keeps the responses across its
 * retries (sendMessages' `responsePerBroker`): a broker that answered is not asked again. When a
 * leader fails and its partition moves to a broker that had already answered for other partitions
 * of the same send (a failover in a cluster of several brokers), the retry skips that broker: the
 * moved partition's records are never sent, yet the send resolves. So the answer is checked here:
 * the messages of a partition it does not acknowledge are sent again, in a send of their own.
 * Nothing is written twice by this: their records never reached the new leader (and the idempotent
 * producer's sequence numbers tell a broker a record it already has).
 */
export async function sendAcknowledged(
  send: (topicMessages: TopicMessages[]) => Promise<RecordMetadata[]>,
  recorder: PartitionRecorder,
  topicMessages: readonly TopicMessages[],
): Promise<RecordMetadata[]> {
  const answers: RecordMetadata[] = [];
  let pending = topicMessages.filter(({ messages }) => messages.length > 0);
  for (let sends = 1; pending.length > 0; sends++) {
    const answer = await send(pending.map(({ topic, messages }) => ({ topic, messages })));
    answers.push(...answer);
    const acknowledged = new Set(answer.map(({ topicName, partition }) => partitionKey(topicName, partition)));
    pending = pending
      .map(({ topic, messages }) => ({ topic, messages: messages.filter((message) => !acknowledged.has(partitionKey(topic, recorder.partitionOf(message)))) }))
      .filter(({ messages }) => messages.length > 0);
    if (pending.length > 0 && sends >= MAX_SENDS) {
      const partitions = pending.flatMap(({ topic, messages }) => [...new Set(messages.map((message) => `${topic}[${recorder.partitionOf(message)}]`))]);
      throw new KafkaJSError(`Kafka acknowledged no write to ${partitions.join(', ')} after ${sends} sends`, { retriable: true });
    }
  }
  return answers;
}
