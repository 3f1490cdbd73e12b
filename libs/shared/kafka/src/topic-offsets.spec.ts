import { Admin, KafkaJSError } from 'kafkajs';
import { fetchTopicOffsets } from './topic-offsets';

/** An admin whose fetchTopicOffsets does what kafkajs 2.2.4's does in the case at hand. */
const adminAnswering = (answer: () => Promise<unknown>) => ({ fetchTopicOffsets: answer }) as unknown as Admin;

describe('fetchTopicOffsets', () => {
  it('reports a topic its metadata does not list yet (kafkajs fails with a TypeError) as a retriable Kafka error', async () => {
    // kafkajs: `const { partitions: highPartitions } = high.pop()` on an empty answer.
    const admin = adminAnswering(async () => {
      const high: Array<{ partitions: unknown }> = [];
      const { partitions } = high.pop() as { partitions: unknown };
      return partitions;
    });
    const failure = await fetchTopicOffsets(admin, 'alerts.raw.v1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(KafkaJSError);
    expect(failure).toMatchObject({ retriable: true, message: expect.stringContaining('alerts.raw.v1') });
  });

  it('passes any other error on as it is', async () => {
    const other = new TypeError('something else');
    await expect(fetchTopicOffsets(adminAnswering(() => Promise.reject(other)), 't')).rejects.toBe(other);
  });

  it('gives the offsets in partition order', async () => {
    const admin = adminAnswering(async () => [
      { partition: 1, offset: '5', high: '5', low: '0' },
      { partition: 0, offset: '3', high: '3', low: '0' },
    ]);
    expect((await fetchTopicOffsets(admin, 't')).map((entry) => entry.partition)).toEqual([0, 1]);
  });
});
