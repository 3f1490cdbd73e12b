import type { LogLevel } from '@nestjs/common';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IntegerSetting, NotAbove } from './integer-setting';

export const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

/** `text`: Nest's readable lines, for a terminal; `json`: one JSON object per line, for log collectors. */
export const LOG_FORMATS = ['text', 'json'] as const;

/** The Nest logger levels a LOG_LEVEL enables: that level and every more severe one (fatal always). */
export function nestLogLevels(level: (typeof LOG_LEVELS)[number]): LogLevel[] {
  return ['fatal', ...LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(level) + 1)];
}

/** The default ADMIN_TOKEN of the services that have one, for local use only; refused when NODE_ENV=production. */
export const LOCAL_ADMIN_TOKEN = 'local-admin-token';

/** Refuses to run in production with the local default ADMIN_TOKEN. */
export function assertAdminTokenSetInProduction(env: { NODE_ENV?: string; ADMIN_TOKEN: string }): void {
  if (env.NODE_ENV === 'production' && env.ADMIN_TOKEN === LOCAL_ADMIN_TOKEN) {
    throw new Error('ADMIN_TOKEN must be set in production (the default is for local use only)');
  }
}

/**
 * Variables every service reads (CONTRACT.md "Processes and defaults"). Defaults point at the local
 * stack that `npm start` brings up.
 */
export class BaseEnv {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgresql:// URL' })
  DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/alert_ingestion';

  /** Comma-separated host:port list. */
  @Matches(/^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, { message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS = '127.0.0.1:9092';

  /** Prefix for every topic name; empty in production, per-run in tests. */
  @IsString()
  @Matches(/^[a-zA-Z0-9._-]*$/, { message: 'may only hold letters, digits, ".", "_" and "-"' })
  KAFKA_TOPIC_PREFIX = '';

  @IsString()
  @Matches(/^[a-zA-Z0-9._-]+$/, { message: 'may only hold letters, digits, ".", "_" and "-"' })
  KAFKA_CLIENT_ID = 'alert-ingestion';

  @IntegerSetting({ min: 0, max: 65535 })
  PORT = 0;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'log';

  @IsIn(LOG_FORMATS)
  LOG_FORMAT: (typeof LOG_FORMATS)[number] = 'text';

  @IsOptional()
  @IsString()
  NODE_ENV?: string = 'development';

  /**
   * Longest a client may take to send a request's headers (docs/operating.md "Timeouts"), counted from the
   * connection or from the first byte of a request on a kept-alive one; then 408 and the connection
   * is closed. Headers are one small write: 5 s cuts a stalled or hostile sender (half a header,
   * held open) quickly, and no client with a working link needs that long.
   */
  @IntegerSetting({ min: 100, max: 600_000 })
  @NotAbove('HTTP_REQUEST_TIMEOUT_MS')
  HTTP_HEADERS_TIMEOUT_MS = 5_000;

  /**
   * Longest a client may take to send a whole request, headers and body; then 408 and close. It
   * bounds receiving only, not the answer (a gateway request waiting for the processor, a test
   * alert waiting for the gateway). 30 s lets the largest body (3 MiB to the management API, 1 MiB
   * to the receiver) through a slow link of about 1 Mbit/s, and cuts a body that trickles in.
   */
  @IntegerSetting({ min: 100, max: 3_600_000 })
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * How long a kept-alive connection may stay idle after an answer before it is closed. Idle
   * connections are not the slow-sender problem (the two timeouts above cut those), and closing
   * them early costs requests: a client or proxy that reuses an idle connection just as the service
   * closes it gets no answer, and a POST is not retried. Load balancers and ingress controllers keep
   * theirs 60 s (nginx, cloud load balancers), so 65 s outlives them; with 5 s a steady stream of
   * alerts from a loaded client lost hundreds of requests to closed connections (scale-out spec).
   */
  @IntegerSetting({ min: 100, max: 600_000 })
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 65_000;
}

/** The settings of a service's HTTP server (see BaseEnv). */
export type HttpServerSettings = Pick<BaseEnv, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>;
