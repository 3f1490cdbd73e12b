import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { brokerAnswerOf, consumerCrashNeedsAttention, describeKafkaError, isRecordRejection, isRoutineBrokerAnswer, kafkaErrorType, routineBrokerAnswers } from './kafka-errors';

function protocolError(type: string, message: string, retriable = false): KafkaJSProtocolError {
  return new KafkaJSProtocolError({ type, code: 10, retriable, message } as unknown as Error);
}

describe('kafka errors', () => {
  it('finds the broker error type through kafkajs retry wrappers', () => {
    const tooLarge = protocolError('MESSAGE_TOO_LARGE', 'The request included a message larger than the max message size the server will accept');
    const wrapped = Object.assign(new KafkaJSNonRetriableError(tooLarge), { cause: tooLarge });
    expect(kafkaErrorType(wrapped)).toBe('MESSAGE_TOO_LARGE');
    expect(isRecordRejection(wrapped)).toBe(true);
    expect(describeKafkaError(wrapped)).toBe('The request included a message larger than the max message size the server will accept (MESSAGE_TOO_LARGE)');
  });

  it('does not take a broker that is away for a refused record', () => {
    const connection = new Error('connect ECONNREFUSED 127.0.0.1:9092');
    const exhausted = new KafkaJSNumberOfRetriesExceeded(connection, { retryCount: 5, retryTime: 1000 } as never);
    expect(kafkaErrorType(exhausted)).toBeUndefined();
    expect(isRecordRejection(exhausted)).toBe(false);
    expect(isRecordRejection(protocolError('NOT_LEADER_FOR_PARTITION', 'not the leader'))).toBe(false);
    expect(isRecordRejection(undefined)).toBe(false);
  });
});

describe('routine broker answers', () => {
  it("finds the broker's answer of a log entry by kafkajs's own table, with its retriable flag", () => {
    expect(brokerAnswerOf({ message: 'x', error: 'This server is not the leader for that topic-partition' })).toMatchObject({ type: 'NOT_LEADER_FOR_PARTITION', retriable: true });
    expect(brokerAnswerOf({ message: 'x', error: 'The group is rebalancing, so a rejoin is needed' })).toMatchObject({ type: 'REBALANCE_IN_PROGRESS', retriable: false });
    expect(brokerAnswerOf({ message: 'Failed to send messages: The request timed out' })).toMatchObject({ type: 'REQUEST_TIMED_OUT' });
    expect(brokerAnswerOf({ message: 'Connection timeout' })).toBeUndefined();
  });

  it('takes retriable and group-membership answers for routine, and nothing a retry cannot fix', () => {
    expect(isRoutineBrokerAnswer({ message: 'x', error: 'The group is rebalancing, so a rejoin is needed' })).toBe(true);
    expect(isRoutineBrokerAnswer({ message: 'x', error: 'The coordinator is not aware of this member' })).toBe(true);
    expect(isRoutineBrokerAnswer({ message: 'x', error: 'The request included a message larger than the max message size the server will accept' })).toBe(false);
    expect(isRoutineBrokerAnswer({ message: 'Crash: KafkaJSNumberOfRetriesExceeded: The group coordinator is not available' })).toBe(false);
    expect(routineBrokerAnswers()).toEqual(expect.arrayContaining(['This server is not the leader for that topic-partition', 'The group is rebalancing, so a rejoin is needed']));
    expect(routineBrokerAnswers()).not.toContain('Topic authorization failed');
  });
});

describe('consumerCrashNeedsAttention', () => {
  const loading = () => protocolError('GROUP_LOAD_IN_PROGRESS', "The coordinator is loading and hence can't process requests for this group", true);

  it('leaves a crash on a routine answer that kafkajs restarts from to the logs at debug', () => {
    expect(consumerCrashNeedsAttention({ error: loading(), restart: true })).toBe(false);
    expect(consumerCrashNeedsAttention({ error: protocolError('REBALANCE_IN_PROGRESS', 'The group is rebalancing, so a rejoin is needed'), restart: true })).toBe(false);
  });

  it('calls for a person when the consumer stopped, a retry budget ran out, or the answer is not routine', () => {
    expect(consumerCrashNeedsAttention({ error: loading(), restart: false })).toBe(true);
    expect(consumerCrashNeedsAttention({ error: new KafkaJSNumberOfRetriesExceeded(loading(), { retryCount: 8, retryTime: 2_000 } as never), restart: true })).toBe(true);
    expect(consumerCrashNeedsAttention({ error: protocolError('TOPIC_AUTHORIZATION_FAILED', 'Topic authorization failed'), restart: true })).toBe(true);
    expect(consumerCrashNeedsAttention({ error: new Error('eachBatch threw'), restart: true })).toBe(true);
  });
});
