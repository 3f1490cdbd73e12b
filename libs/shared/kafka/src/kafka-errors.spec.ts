import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { describeKafkaError, isRecordRejection, kafkaErrorType } from './kafka-errors';

function protocolError(type: string, message: string): KafkaJSProtocolError {
  return new KafkaJSProtocolError({ type, code: 10, retriable: false, message } as unknown as Error);
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
