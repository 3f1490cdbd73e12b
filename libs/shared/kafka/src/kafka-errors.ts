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
