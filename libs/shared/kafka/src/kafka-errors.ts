import { KafkaJSNumberOfRetriesExceeded } from 'kafkajs';
import { isRebalancing } from 'kafkajs/src/errors';
import { errorCodes } from 'kafkajs/src/protocol/error';

/**
 * Broker error types that refuse the records themselves (too large, malformed): sending the same
 * records again can never succeed, unlike a broker that is down or a leader that moved.
 */
const RECORD_REJECTIONS = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'CORRUPT_MESSAGE', 'INVALID_TIMESTAMP']);

/**
 * The broker's error type (`MESSAGE_TOO_LARGE`, ...) of a kafkajs error. kafkajs wraps the
 * protocol error of a failed request in retry errors; the type is on the innermost cause.
 */
export function kafkaErrorType(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 10; depth++) {
    const { type, cause } = current as { type?: unknown; cause?: unknown };
    if (typeof type === 'string') return type;
    current = cause;
  }
  return undefined;
}

/** Whether the broker refused the records themselves (see RECORD_REJECTIONS). */
export function isRecordRejection(error: unknown): boolean {
  const type = kafkaErrorType(error);
  return type !== undefined && RECORD_REJECTIONS.has(type);
}

/** One line about a kafkajs error: its message and, when there is one, the broker's error type. */
export function describeKafkaError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const type = kafkaErrorType(error);
  return type && !message.includes(type) ? `${message} (${type})` : message;
}

/** kafkajs's table of broker error codes, by type and by message (its log entries carry the message only). */
const BROKER_ERRORS_BY_TYPE = new Map(errorCodes.map((code) => [code.type, code]));
const BROKER_ERRORS_BY_MESSAGE = new Map(errorCodes.map((code) => [code.message, code]));

/**
 * Broker answers kafkajs handles by itself: those its table marks retriable (it retries the
 * request: NOT_LEADER_FOR_PARTITION, GROUP_COORDINATOR_NOT_AVAILABLE, a coordinator still loading,
 * CONCURRENT_TRANSACTIONS...), and group-membership answers its consumer meets by joining again
 * (its own isRebalancing: REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION...; and UNKNOWN_MEMBER_ID).
 * They are routine while a cluster starts, elects leaders or moves a coordinator.
 */
function isRoutineAnswerType(type: string): boolean {
  const code = BROKER_ERRORS_BY_TYPE.get(type);
  return code !== undefined && (code.retriable || isRebalancing({ type }) || type === 'UNKNOWN_MEMBER_ID');
}

/**
 * What kafkajs puts before a broker's answer in a log message: a send it retries, a consumer that
 * crashed on the answer itself (and that it restarts).
 */
const ANSWER_PREFIXES = ['Failed to send messages: ', 'Crash: KafkaJSProtocolError: '];

/**
 * The broker's answer a kafkajs log entry reports, when it names one: as its `error` field (a
 * failed request, a consumer re-joining) or in its message (a send being retried, a crash).
 */
export function brokerAnswerOf(log: { message: string; error?: unknown }): { type: string; retriable: boolean } | undefined {
  if (typeof log.error === 'string') return BROKER_ERRORS_BY_MESSAGE.get(log.error);
  const prefix = ANSWER_PREFIXES.find((candidate) => log.message.startsWith(candidate));
  return BROKER_ERRORS_BY_MESSAGE.get(prefix ? log.message.slice(prefix.length) : log.message);
}

/**
 * Whether a kafkajs log entry only reports a routine broker answer (see isRoutineAnswerType).
 * kafkajs logs each at ERROR or WARN; nobody needs to act on one. When they outlast the retries,
 * whoever waited fails and says so (a crash after KafkaJSNumberOfRetriesExceeded, a failed
 * produce): that is the line a person must act on.
 */
export function isRoutineBrokerAnswer(log: { message: string; error?: unknown }): boolean {
  const answer = brokerAnswerOf(log);
  return answer !== undefined && isRoutineAnswerType(answer.type);
}

/** The messages of the routine broker answers (to look for them in logs). */
export function routineBrokerAnswers(): string[] {
  return errorCodes.filter((code) => isRoutineAnswerType(code.type)).map((code) => code.message);
}

/**
 * Whether a consumer crash (kafkajs's CRASH event) needs a person: it stopped the consumer, or it
 * ended a retry budget. A crash on a routine broker answer that kafkajs restarts the consumer from
 * (a group coordinator still loading at start-up) does not.
 */
export function consumerCrashNeedsAttention(crash: { error: Error; restart: boolean }): boolean {
  if (!crash.restart || crash.error instanceof KafkaJSNumberOfRetriesExceeded) return true;
  const type = kafkaErrorType(crash.error);
  return type === undefined || !isRoutineAnswerType(type);
}
