import { KafkaJSConnectionError, Message, Partitioners, RecordMetadata, TopicMessages } from 'kafkajs';
import createSendMessages from 'kafkajs/src/producer/sendMessages';
import createRetry from 'kafkajs/src/retry';
import { PartitionRecorder, sendAcknowledged } from './acknowledged-send';

const TOPIC = 'alerts.raw.v1';

/**
 * Two brokers in front of kafkajs's own produce loop (sendMessages, the code behind every send):
 * node 1 leads partition 0, node 2 partition 1. Node 1 dies during the first produce request; by
 * the retry, partition 0 is led by node 2, which had already answered for partition 1.
 */
function clusterWithFailover() {
  const leaders: Record<number, number> = { 0: 1, 1: 2 };
  const written: Array<{ node: number; partition: number; keys: string[] }> = [];
  const broker = (nodeId: number) => ({
    nodeId,
    produce: async ({ topicData }: { topicData: Array<{ topic: string; partitions: Array<{ partition: number; messages: Message[] }> }> }) => {
      if (nodeId === 1) {
        leaders[0] = 2; // the controller moves node 1's partition to node 2
        throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED', { broker: 'node-1' } as never);
      }
      const partitions = topicData[0].partitions;
      for (const { partition, messages } of partitions) written.push({ node: nodeId, partition, keys: messages.map((message) => String(message.key)) });
      return { topics: [{ topicName: TOPIC, partitions: partitions.map(({ partition }) => ({ partition, errorCode: 0, baseOffset: '0' })) }] };
    },
  });
  const brokers = new Map([1, 2].map((nodeId) => [nodeId, broker(nodeId)]));
  const cluster = {
    refreshMetadataIfNecessary: async () => undefined,
    refreshMetadata: async () => undefined,
    addMultipleTargetTopics: async () => undefined,
    isConnected: () => true,
    removeBroker: () => undefined,
    findTopicPartitionMetadata: () => [{ partitionId: 0, leader: leaders[0] }, { partitionId: 1, leader: leaders[1] }],
    findLeaderForPartitions: (_topic: string, partitions: string[]) => {
      const byLeader: Record<number, number[]> = {};
      for (const partition of partitions.map(Number)) (byLeader[leaders[partition]] ??= []).push(partition);
      return byLeader;
    },
    findBroker: async ({ nodeId }: { nodeId: string }) => brokers.get(Number(nodeId)),
  };
  const eosManager = {
    acquireBrokerLock: async () => undefined,
    releaseBrokerLock: async () => undefined,
    isTransactional: () => false,
    getSequence: () => 0,
    updateSequence: () => undefined,
    getProducerId: () => -1,
    getProducerEpoch: () => 0,
    getTransactionalId: () => undefined,
  };
  const recorder = new PartitionRecorder();
  const sendMessages = createSendMessages({
    logger: { debug: () => undefined, error: () => undefined, warn: () => undefined, info: () => undefined },
    cluster,
    partitioner: recorder.createPartitioner(),
    eosManager,
    retrier: createRetry({ retries: 3, initialRetryTime: 1, maxRetryTime: 5 }),
  });
  const send = (topicMessages: TopicMessages[]): Promise<RecordMetadata[]> => sendMessages({ acks: -1, topicMessages });
  return { send, recorder, written };
}

/** Keys that the murmur2 partitioner puts on partition 0 and on partition 1 of two. */
function keysOnBothPartitions(): Message[] {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = [0, 1].map((partitionId) => ({ partitionId, leader: 0, replicas: [], isr: [], partitionErrorCode: 0 }));
  const messages: Message[] = [];
  for (let index = 0; new Set(messages.map((message) => partitioner({ topic: TOPIC, partitionMetadata, message }))).size < 2 || messages.length < 4; index++) {
    messages.push({ key: `integration-${index}`, value: `alert ${index}` });
  }
  return messages;
}

describe('sendAcknowledged', () => {
  it('kafkajs alone resolves a send whose moved partition it never wrote (the failure this guards against)', async () => {
    const { send, written } = clusterWithFailover();
    const messages = keysOnBothPartitions();

    const answer = await send([{ topic: TOPIC, messages }]);

    expect(answer.map((entry) => entry.partition)).toEqual([1]);
    expect(written.flatMap((entry) => entry.keys).length).toBeLessThan(messages.length);
  });

  it('sends the messages of a partition the answer left out again, so every message is written once', async () => {
    const { send, recorder, written } = clusterWithFailover();
    const messages = keysOnBothPartitions();

    const answer = await sendAcknowledged(send, recorder, [{ topic: TOPIC, messages }]);

    expect(answer.map((entry) => entry.partition).sort()).toEqual([0, 1]);
    expect(written.flatMap((entry) => entry.keys).sort()).toEqual(messages.map((message) => String(message.key)).sort());
    expect(written.filter((entry) => entry.partition === 0).map((entry) => entry.node)).toEqual([2]);
  });

  it('gives up with a retriable error when a partition is never acknowledged', async () => {
    const recorder = new PartitionRecorder();
    const partitioner = recorder.createPartitioner();
    const partitionMetadata = [0, 1].map((partitionId) => ({ partitionId, leader: 0, replicas: [], isr: [], partitionErrorCode: 0 }));
    const neverPartitionZero = async (topicMessages: TopicMessages[]): Promise<RecordMetadata[]> => {
      const partitions = topicMessages[0].messages.map((message) => partitioner({ topic: TOPIC, partitionMetadata, message }));
      return [...new Set(partitions)].filter((partition) => partition !== 0).map((partition) => ({ topicName: TOPIC, partition, errorCode: 0 }));
    };

    await expect(sendAcknowledged(neverPartitionZero, recorder, [{ topic: TOPIC, messages: keysOnBothPartitions() }])).rejects.toMatchObject({
      retriable: true,
      message: expect.stringContaining(`${TOPIC}[0]`),
    });
  });

  it('chooses the partition kafkajs\'s DefaultPartitioner chooses', () => {
    const recorder = new PartitionRecorder();
    const recording = recorder.createPartitioner();
    const reference = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 12 }, (_, partitionId) => ({ partitionId, leader: 0, replicas: [], isr: [], partitionErrorCode: 0 }));
    for (const key of ['1', '42', 'project:7']) {
      const message = { key, value: 'v' };
      expect(recording({ topic: TOPIC, partitionMetadata, message })).toBe(reference({ topic: TOPIC, partitionMetadata, message: { key, value: 'v' } }));
      expect(recorder.partitionOf(message)).toBe(reference({ topic: TOPIC, partitionMetadata, message }));
    }
  });
});
