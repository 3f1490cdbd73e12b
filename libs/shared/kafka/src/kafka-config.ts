import { KafkaConfig, logCreator, LogEntry, logLevel, RetryOptions } from 'kafkajs';
import { isRoutineBrokerAnswer } from './kafka-errors';
import { skipAbortedRecordsAsKafkaDoes } from './kafkajs-aborted-records';
import { armKafkajsPendingCheckOnlyWhenWaiting } from './kafkajs-request-queue';

// Every kafkajs client of a process is built or probed through this library.
armKafkajsPendingCheckOnlyWhenWaiting();
skipAbortedRecordsAsKafkaDoes();

/** The part of a service's environment that describes its Kafka connection (see BaseEnv). */
export interface KafkaSettings {
  /** Comma-separated host:port list. */
  KAFKA_BROKERS: string;
  KAFKA_CLIENT_ID: string;
  /** A Nest log level: error | warn | log | debug | verbose. */
  LOG_LEVEL?: string;
}

/**
 * A kafkajs log line: its message, and kafkajs's own fields (namespace, broker, groupId, error...)
 * under `kafka`, so they are fields of a JSON line and cannot collide with the line's own.
 */
export interface KafkaLogLine {
  message: string;
  kafka: Record<string, unknown>;
}

/** Where kafkajs log lines go; Nest's Logger fits this shape (its structured messages, see StructuredLogMessage in libs/shared/http). */
export interface KafkaLogSink {
  error(message: string | KafkaLogLine): void;
  warn(message: string | KafkaLogLine): void;
  log(message: string | KafkaLogLine): void;
  debug(message: string | KafkaLogLine): void;
}

/** Retries for connection and metadata requests: quick at first, capped so a dead broker fails in ~10 s. */
export const DEFAULT_KAFKA_RETRY: Readonly<RetryOptions> = {
  initialRetryTime: 100,
  maxRetryTime: 2_000,
  retries: 8,
};

export function parseBrokers(brokers: string): string[] {
  const list = brokers
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker.length > 0);
  if (list.length === 0) throw new Error('KAFKA_BROKERS must name at least one host:port');
  return list;
}

/** Nest's log levels mapped onto kafkajs's (kafkajs has no "verbose"). */
export function kafkaLogLevel(level: string | undefined): logLevel {
  switch (level) {
    case 'error':
      return logLevel.ERROR;
    case 'warn':
      return logLevel.WARN;
    case 'debug':
    case 'verbose':
      return logLevel.DEBUG;
    default:
      return logLevel.INFO;
  }
}

/**
 * Warnings about a deliberate choice: DurableProducer bounds the retries of its idempotent producer
 * so that a send to an unreachable cluster fails (and the caller can answer 503) instead of
 * retrying forever; kafkajs warns about that on every producer it creates.
 */
const EXPECTED_WARNINGS = new Set(['Limiting retries for the idempotent producer may invalidate EoS guarantees']);

/** How kafkajs's consumer says it restarts after a crash (an entry with no other field to know it by). */
const RESTARTING_CONSUMER = 'Restarting the consumer in ';

/**
 * Routes kafkajs log entries to a sink (e.g. a Nest Logger) as one structured line each, at
 * kafkajs's level except for broker answers it handles by itself (isRoutineBrokerAnswer: debug)
 * and its restart of a crashed consumer (info).
 */
export function kafkaLogCreator(sink: KafkaLogSink): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = log;
      if (level === logLevel.WARN && EXPECTED_WARNINGS.has(message)) return;
      const line: KafkaLogLine = { message: `${namespace ? `[${namespace}] ` : ''}${message}`, kafka: { ...(namespace ? { namespace } : {}), ...extra } };
      if (level <= logLevel.WARN && isRoutineBrokerAnswer(log)) sink.debug(line);
      // kafkajs restarting a crashed consumer: the crash line before it says whether to worry.
      else if (level === logLevel.ERROR && message.startsWith(RESTARTING_CONSUMER)) sink.log(line);
      else if (level === logLevel.ERROR) sink.error(line);
      else if (level === logLevel.WARN) sink.warn(line);
      else if (level === logLevel.INFO) sink.log(line);
      else sink.debug(line);
    };
}

/**
 * The one place kafkajs client options are built from the environment, for every service, tool
 * and test. `overrides` wins (e.g. a distinct clientId per consumer, or a sink for logs).
 */
export function createKafkaConfig(
  settings: KafkaSettings,
  options: { logSink?: KafkaLogSink; overrides?: Partial<KafkaConfig> } = {},
): KafkaConfig {
  return {
    clientId: settings.KAFKA_CLIENT_ID,
    brokers: parseBrokers(settings.KAFKA_BROKERS),
    logLevel: kafkaLogLevel(settings.LOG_LEVEL),
    ...(options.logSink ? { logCreator: kafkaLogCreator(options.logSink) } : {}),
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { ...DEFAULT_KAFKA_RETRY },
    ...options.overrides,
  };
}
