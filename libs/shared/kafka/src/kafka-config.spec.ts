import { logLevel } from 'kafkajs';
import { createKafkaConfig, kafkaLogCreator, kafkaLogLevel, parseBrokers } from './kafka-config';

describe('createKafkaConfig', () => {
  it('builds client options from the environment', () => {
    const config = createKafkaConfig({ KAFKA_BROKERS: 'a:9092, b:9093', KAFKA_CLIENT_ID: 'gateway', LOG_LEVEL: 'warn' });
    expect(config).toMatchObject({ clientId: 'gateway', brokers: ['a:9092', 'b:9093'], logLevel: logLevel.WARN });
    expect(config.retry).toEqual({ initialRetryTime: 100, maxRetryTime: 2_000, retries: 8 });
    expect(config.logCreator).toBeUndefined();
  });

  it('lets overrides win and installs a log sink when given one', () => {
    const sink = { error: jest.fn(), warn: jest.fn(), log: jest.fn(), debug: jest.fn() };
    const config = createKafkaConfig({ KAFKA_BROKERS: 'a:1', KAFKA_CLIENT_ID: 'x' }, { logSink: sink, overrides: { clientId: 'y' } });
    expect(config.clientId).toBe('y');
    expect(config.logCreator).toBeInstanceOf(Function);
  });

  it('rejects an empty broker list', () => {
    expect(() => parseBrokers(' , ')).toThrow('KAFKA_BROKERS must name at least one host:port');
  });
});

describe('kafkaLogLevel', () => {
  it.each([
    ['error', logLevel.ERROR],
    ['warn', logLevel.WARN],
    ['log', logLevel.INFO],
    ['debug', logLevel.DEBUG],
    ['verbose', logLevel.DEBUG],
    [undefined, logLevel.INFO],
  ])('maps the Nest level %s', (level, expected) => {
    expect(kafkaLogLevel(level)).toBe(expected);
  });
});

describe('kafkaLogCreator', () => {
  it('writes one structured line per entry at the matching level, kafkajs\'s fields under `kafka`', () => {
    const sink = { error: jest.fn(), warn: jest.fn(), log: jest.fn(), debug: jest.fn() };
    const logger = kafkaLogCreator(sink)(logLevel.DEBUG);
    logger({ namespace: 'Consumer', level: logLevel.ERROR, label: 'ERROR', log: { timestamp: 't', logger: 'kafkajs', message: 'Crash', groupId: 'g' } });
    logger({ namespace: '', level: logLevel.INFO, label: 'INFO', log: { timestamp: 't', message: 'Joined' } });
    logger({ namespace: 'Connection', level: logLevel.DEBUG, label: 'DEBUG', log: { timestamp: 't', message: 'Request', broker: 'b:9092' } });
    expect(sink.error).toHaveBeenCalledWith({ message: '[Consumer] Crash', kafka: { namespace: 'Consumer', groupId: 'g' } });
    expect(sink.log).toHaveBeenCalledWith({ message: 'Joined', kafka: {} });
    expect(sink.debug).toHaveBeenCalledWith({ message: '[Connection] Request', kafka: { namespace: 'Connection', broker: 'b:9092' } });
    expect(sink.warn).not.toHaveBeenCalled();
  });

  it('drops the warning about the bounded retries DurableProducer chooses on purpose, and only that one', () => {
    const sink = { error: jest.fn(), warn: jest.fn(), log: jest.fn(), debug: jest.fn() };
    const logger = kafkaLogCreator(sink)(logLevel.DEBUG);
    logger({ namespace: 'Producer', level: logLevel.WARN, label: 'WARN', log: { timestamp: 't', message: 'Limiting retries for the idempotent producer may invalidate EoS guarantees' } });
    logger({ namespace: 'Producer', level: logLevel.WARN, label: 'WARN', log: { timestamp: 't', message: 'Something else' } });
    expect(sink.warn.mock.calls).toEqual([[{ message: '[Producer] Something else', kafka: { namespace: 'Producer' } }]]);
  });
});

describe('routine broker answers', () => {
  const sink = () => ({ error: jest.fn(), warn: jest.fn(), log: jest.fn(), debug: jest.fn() });

  // What kafkajs 2.2.4 logs while a fresh cluster starts and a group forms (seen on `npm start`).
  const startUp = [
    { namespace: 'Connection', level: logLevel.ERROR, message: 'Response ListOffsets(key: 2, version: 3)', error: 'This server is not the leader for that topic-partition' },
    { namespace: 'Connection', level: logLevel.ERROR, message: 'Response GroupCoordinator(key: 10, version: 2)', error: 'The group coordinator is not available' },
    { namespace: 'Connection', level: logLevel.ERROR, message: 'Response InitProducerId(key: 22, version: 1)', error: "The coordinator is loading and hence can't process requests for this group" },
    {
      namespace: 'Connection',
      level: logLevel.ERROR,
      message: 'Response AddPartitionsToTxn(key: 24, version: 1)',
      error: 'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing',
    },
    { namespace: 'Connection', level: logLevel.ERROR, message: 'Response Heartbeat(key: 12, version: 1)', error: 'The group is rebalancing, so a rejoin is needed' },
    { namespace: 'Runner', level: logLevel.WARN, message: 'The group is rebalancing, re-joining', error: 'The group is rebalancing, so a rejoin is needed' },
    { namespace: 'Runner', level: logLevel.ERROR, message: 'The coordinator is not aware of this member, re-joining the group', error: 'The coordinator is not aware of this member' },
    { namespace: 'Producer', level: logLevel.ERROR, message: 'Failed to send messages: There is no leader for this topic-partition as we are in the middle of a leadership election' },
    { namespace: 'Consumer', level: logLevel.ERROR, message: "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group" },
  ];

  it.each(startUp)('writes $namespace "$message" at debug', ({ namespace, level, message, error }) => {
    const lines = sink();
    kafkaLogCreator(lines)(logLevel.DEBUG)({ namespace, level, label: '', log: { timestamp: 't', message, ...(error ? { error } : {}) } });
    expect(lines.debug).toHaveBeenCalledWith({ message: `[${namespace}] ${message}`, kafka: expect.objectContaining({ namespace }) });
    expect([lines.error, lines.warn, lines.log].map((write) => write.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it('keeps answers that retrying cannot fix, and failures that outlast the retries, at their level', () => {
    const lines = sink();
    const log = kafkaLogCreator(lines)(logLevel.DEBUG);
    log({ namespace: 'Connection', level: logLevel.ERROR, label: '', log: { timestamp: 't', message: 'Response Produce(key: 0, version: 7)', error: 'Topic authorization failed' } });
    log({ namespace: 'Consumer', level: logLevel.ERROR, label: '', log: { timestamp: 't', message: 'Crash: KafkaJSNumberOfRetriesExceeded: The group coordinator is not available', retryCount: 8 } });
    log({ namespace: 'ConsumerGroup', level: logLevel.ERROR, label: '', log: { timestamp: 't', message: 'Offset out of range, resetting to default offset' } });
    expect(lines.error).toHaveBeenCalledTimes(3);
    expect(lines.debug).not.toHaveBeenCalled();
  });

  it("writes kafkajs's restart of a crashed consumer as one INFO line", () => {
    const lines = sink();
    kafkaLogCreator(lines)(logLevel.DEBUG)({ namespace: 'Consumer', level: logLevel.ERROR, label: '', log: { timestamp: 't', message: 'Restarting the consumer in 100ms', retryTime: 100, groupId: 'g' } });
    expect(lines.log).toHaveBeenCalledWith({ message: '[Consumer] Restarting the consumer in 100ms', kafka: { namespace: 'Consumer', retryTime: 100, groupId: 'g' } });
    expect(lines.error).not.toHaveBeenCalled();
  });
});
