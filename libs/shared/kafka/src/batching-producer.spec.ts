import { CompressionTypes, Message } from 'kafkajs';
import { AsyncLocalStorage } from 'node:async_hooks';
import { BatchingProducer, BatchingProducerOptions, BatchingProducerTarget } from './batching-producer';

interface SentRecord {
  topic: string;
  messages: Message[];
  compression?: CompressionTypes;
  settle: (error?: Error) => void;
}

/** A producer whose sends complete when the test says so. */
class ControlledProducer implements BatchingProducerTarget {
  readonly sent: SentRecord[] = [];

  send(record: { topic: string; messages: Message[]; compression?: CompressionTypes }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.sent.push({ ...record, settle: (error) => (error ? reject(error) : resolve([])) });
    });
  }
}

const options = (overrides: Partial<BatchingProducerOptions> = {}): BatchingProducerOptions => ({
  topic: 't.alerts.raw.v1',
  lingerMs: 0,
  maxMessages: 100,
  maxBytes: 10_000,
  maxInFlight: 1,
  compressAboveBytes: 5_000,
  ...overrides,
});

const turn = () => new Promise((resolve) => setImmediate(resolve));
const value = (size: number) => Buffer.alloc(size, 'a');

describe('BatchingProducer', () => {
  it('sends what arrives in one event-loop turn as one produce request', async () => {
    const producer = new ControlledProducer();
    const publisher = new BatchingProducer(producer, options());
    const published = [1, 2, 3].map((n) => publisher.publish('7', Buffer.from(`m${n}`)));
    await turn();
    expect(producer.sent).toHaveLength(1);
    expect(producer.sent[0].topic).toBe('t.alerts.raw.v1');
    expect(producer.sent[0].messages.map((m) => String(m.value))).toEqual(['m1', 'm2', 'm3']);
    expect(producer.sent[0].messages.every((m) => m.key === '7')).toBe(true);
    producer.sent[0].settle();
    await expect(Promise.all(published)).resolves.toEqual([undefined, undefined, undefined]);
  });

  it("sends a batch outside its requests' contexts, and settles each caller in its own", async () => {
    const request = new AsyncLocalStorage<string>();
    const producer = new ControlledProducer();
    const sentIn: Array<string | undefined> = [];
    const send = producer.send.bind(producer);
    producer.send = (record) => {
      sentIn.push(request.getStore());
      return send(record);
    };
    const publisher = new BatchingProducer(producer, options({ maxMessages: 2 }));
    // The second message fills the batch, so it is sent at once, inside request b's publish().
    const settledIn = ['a', 'b'].map((id) => request.run(id, () => publisher.publish('1', value(10)).then(() => request.getStore())));
    producer.sent[0].settle();
    expect(await Promise.all(settledIn)).toEqual(['a', 'b']);
    expect(sentIn).toEqual([undefined]);
  });

  it('settles a caller only when its batch is acknowledged', async () => {
    const producer = new ControlledProducer();
    const publisher = new BatchingProducer(producer, options());
    let settled = false;
    const published = publisher.publish('1', value(10)).then(() => (settled = true));
    await turn();
    await turn();
    expect(settled).toBe(false);
    producer.sent[0].settle();
    await published;
    expect(settled).toBe(true);
  });

  it('rejects every caller of a failed batch, and only those', async () => {
    const producer = new ControlledProducer();
    const publisher = new BatchingProducer(producer, options({ maxInFlight: 2 }));
    const first = [publisher.publish('1', value(1)), publisher.publish('1', value(1))];
    await turn();
    const second = publisher.publish('1', value(1));
    await turn();
    expect(producer.sent).toHaveLength(2);
    producer.sent[0].settle(new Error('broker down'));
    producer.sent[1].settle();
    await expect(first[0]).rejects.toThrow('broker down');
    await expect(first[1]).rejects.toThrow('broker down');
    await expect(second).resolves.toBeUndefined();
  });

  it('collects messages while the in-flight limit is reached and sends them together', async () => {
    const producer = new ControlledProducer();
    const publisher = new BatchingProducer(producer, options({ maxInFlight: 1 }));
    const all = [publisher.publish('1', value(1))];
    await turn();
    for (let i = 0; i < 5; i++) all.push(publisher.publish('1', value(1)));
    await turn();
    expect(producer.sent).toHaveLength(1);
    expect(publisher.outstanding).toBe(6);
    producer.sent[0].settle();
    await turn();
    expect(producer.sent).toHaveLength(2);
    expect(producer.sent[1].messages).toHaveLength(5);
    producer.sent[1].settle();
    await Promise.all(all);
    expect(publisher.outstanding).toBe(0);
  });

  it('never puts more than maxMessages or maxBytes into one request', async () => {
    const producer = new ControlledProducer();
    const publisher = new BatchingProducer(producer, options({ maxMessages: 3, maxBytes: 1_000, maxInFlight: 10 }));
    const all = Array.from({ length: 7 }, () => publisher.publish('1', value(100)));
    await turn();
    expect(producer.sent.map((r) => r.messages.length)).toEqual([3, 3, 1]);
    producer.sent.forEach((r) => r.settle());
    await Promise.all(all);

    const bytesProducer = new ControlledProducer();
    const bytesPublisher = new BatchingProducer(bytesProducer, options({ maxBytes: 1_000, maxInFlight: 10 }));
    const sized = Array.from({ length: 5 }, () => bytesPublisher.publish('1', value(399)));
    await turn();
    expect(bytesProducer.sent.map((r) => r.messages.length)).toEqual([2, 2, 1]);
    bytesProducer.sent.forEach((r) => r.settle());
    await Promise.all(sized);
  });

  it('sends a large message alone and gzip-compressed', async () => {
    const producer = new ControlledProducer();
    const publisher = new BatchingProducer(producer, options({ compressAboveBytes: 5_000, maxInFlight: 10 }));
    const small = publisher.publish('1', value(10));
    const large = publisher.publish('1', value(6_000));
    await turn();
    const compressed = producer.sent.filter((r) => r.compression === CompressionTypes.GZIP);
    expect(compressed).toHaveLength(1);
    expect(compressed[0].messages).toHaveLength(1);
    expect(compressed[0].messages[0].value).toHaveLength(6_000);
    expect(producer.sent.filter((r) => r.compression !== CompressionTypes.GZIP).flatMap((r) => r.messages)).toHaveLength(1);
    producer.sent.forEach((r) => r.settle());
    await Promise.all([small, large]);
  });

  it('waits for linger before sending when lingerMs is set', async () => {
    jest.useFakeTimers();
    try {
      const producer = new ControlledProducer();
      const publisher = new BatchingProducer(producer, options({ lingerMs: 5 }));
      void publisher.publish('1', value(1));
      jest.advanceTimersByTime(4);
      expect(producer.sent).toHaveLength(0);
      void publisher.publish('1', value(1));
      jest.advanceTimersByTime(1);
      expect(producer.sent).toHaveLength(1);
      expect(producer.sent[0].messages).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('drain() flushes pending messages and waits for every produce request', async () => {
    const producer = new ControlledProducer();
    const publisher = new BatchingProducer(producer, options({ lingerMs: 1_000 }));
    const published = publisher.publish('1', value(1));
    let drained = false;
    const draining = publisher.drain().then(() => (drained = true));
    expect(producer.sent).toHaveLength(1);
    await turn();
    expect(drained).toBe(false);
    producer.sent[0].settle();
    await draining;
    await published;
    expect(drained).toBe(true);
    await expect(publisher.drain()).resolves.toBeUndefined();
  });
});
