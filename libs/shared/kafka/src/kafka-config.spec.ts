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
