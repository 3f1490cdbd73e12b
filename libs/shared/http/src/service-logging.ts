import { BaseEnv, nestLogLevels } from '@alert-ingestion/config';
import { ConsoleLogger, Logger, LoggerService, LogLevel } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { pino } from 'pino';
import { HttpLogger, Options, pinoHttp } from 'pino-http';
import { PinoNestLogger } from './pino-nest-logger';
import type { IdentifiedRequest } from './request-id';

/** The part of a service's environment that says how it logs. */
export type LoggingSettings = Pick<BaseEnv, 'LOG_FORMAT' | 'LOG_LEVEL'>;

/**
 * A log line with structured fields: `logger.warn({ message: 'Dead-lettered ...', request_id })`.
 * JSON lines carry the fields next to the message; text lines append them as JSON. Field names are
 * snake_case and never `time`, `level`, `service` or `context`, which every JSON line has.
 */
export interface StructuredLogMessage {
  message: string;
  [field: string]: unknown;
}

export function isStructuredLogMessage(value: unknown): value is StructuredLogMessage {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { message?: unknown }).message === 'string';
}

export interface ServiceLoggingOptions {
  /** Where JSON lines go; stdout by default. */
  destination?: pino.DestinationStream;
  /**
   * Keep the request's context for every line written while it is handled (default true): an
   * AsyncLocalStorage per request, which makes the promises created meanwhile a little dearer.
   * Without it, access lines still name their request, and lines that name it themselves.
   */
  requestContext?: boolean;
}

/** How a service writes its log lines (see useServiceLogging). */
export interface ServiceLogging {
  /** Nest's logger: given to NestFactory.create; every `new Logger(context)` writes through it. */
  readonly logger: LoggerService;
  /**
   * Runs the handling of one HTTP request whose id is known (`request.id`): in JSON, one access line
   * when it is answered, and the request id on every line written meanwhile.
   */
  handleRequest(request: IdentifiedRequest, response: ServerResponse, handle: () => void): void;
  /**
   * True when every line written inside handleRequest or inRequestContext names the request by
   * itself (JSON with the request context on); a line that must name it otherwise names it itself.
   */
  readonly requestContext: boolean;
  /** Runs `handle` (and what it starts) in the context of request `requestId`, for a route served outside Nest. */
  inRequestContext<T>(requestId: string, handle: () => T): T;
}

/** Text lines: Nest's ConsoleLogger, with structured messages kept on one line. */
export class TextLogger extends ConsoleLogger {
  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    if (!isStructuredLogMessage(message)) return super.stringifyMessage(message, logLevel);
    const { message: text, ...fields } = message;
    const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    const suffix = Object.keys(given).length > 0 ? ` ${JSON.stringify(given, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}` : '';
    return super.stringifyMessage(`${text}${suffix}`, logLevel);
  }
}

const PINO_LEVEL: Readonly<Record<LoggingSettings['LOG_LEVEL'], pino.Level>> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/** Liveness and scraping are polled every few seconds: their access lines are debug, not info. */
const POLLED_PATHS = new Set(['/healthz', '/metrics']);

/** Query parameters that may carry a secret (GitLab's clients send `private_token=`); never logged. */
const SECRET_PARAMETER = /token|key|secret|password|auth/i;

/** A request URL as it may be logged: the path, and the query with the values of secret-looking parameters replaced. */
export function loggableUrl(url: string | undefined): string {
  if (!url) return '';
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of new Set(query.keys())) {
    if (SECRET_PARAMETER.test(name)) query.set(name, '[redacted]');
  }
  const text = query.toString();
  return text === '' ? url.slice(0, queryStart) : `${url.slice(0, queryStart)}?${text}`;
}

function pathOf(url: string | undefined): string {
  return (url ?? '').split('?', 1)[0];
}

/**
 * pino-http's access line: method, URL (secret-looking query values redacted), status and duration,
 * never a header or a body, so no token, key or credential can reach it.
 */
function accessLogOptions(): Options<IdentifiedRequest, ServerResponse> {
  const summary = (request: IdentifiedRequest, response: ServerResponse) => `${request.method} ${loggableUrl(request.url)} ${response.statusCode}`;
  return {
    genReqId: (request) => request.id,
    // Lines written during the request carry only its id; the access line also its method and URL.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    serializers: {
      req: (request: { method?: string; url?: string }) => ({ method: request.method, url: loggableUrl(request.url) }),
      res: (response: { statusCode?: number }) => ({ status: response.statusCode }),
    },
    customLogLevel: (request, response, error) => {
      if (error || response.statusCode >= 500) return 'error';
      return POLLED_PATHS.has(pathOf(request.url)) && response.statusCode < 400 ? 'debug' : 'info';
    },
    customSuccessMessage: summary,
    customErrorMessage: (request, response) => summary(request, response),
  };
}

function textLogging(settings: LoggingSettings): ServiceLogging {
  return {
    logger: new TextLogger({ logLevels: nestLogLevels(settings.LOG_LEVEL) }),
    handleRequest: (_request, _response, handle) => handle(),
    requestContext: false,
    inRequestContext: (_requestId, handle) => handle(),
  };
}

/**
 * JSON lines through pino, one object per line:
 * `{"level":"info","time":"…","service":"integration-config","context":"…","message":"…","request_id":"…"}`.
 * PinoNestLogger serves Nest's Logger API and keeps a logger per request in an AsyncLocalStorage,
 * so every line written while a request is handled carries the request id; pino-http writes the
 * access line.
 */
function jsonLogging(service: string, settings: LoggingSettings, { destination, requestContext = true }: ServiceLoggingOptions): ServiceLogging {
  const options: pino.LoggerOptions = {
    level: PINO_LEVEL[settings.LOG_LEVEL],
    base: { service },
    messageKey: 'message',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  const root = destination ? pino(options, destination) : pino(options);
  // Nest's lines go through the child pino-http derives from the root (its serializers for `req`,
  // `res` and `err` fields); the access lines through another, whose context is `HTTP`.
  const logger = new PinoNestLogger(pinoHttp({ logger: root }).logger);
  const access: HttpLogger<IdentifiedRequest, ServerResponse> = pinoHttp({ ...accessLogOptions(), logger: root.child({ context: 'HTTP' }) });
  const inRequestContext = <T>(requestId: string, handle: () => T): T => logger.runInContext({ request_id: requestId }, handle);
  const logAccess: ServiceLogging['handleRequest'] = (request, response, handle) => {
    access(request, response);
    handle();
  };
  return {
    logger,
    handleRequest: requestContext ? (request, response, handle) => inRequestContext(request.id, () => logAccess(request, response, handle)) : logAccess,
    requestContext,
    inRequestContext: requestContext ? inRequestContext : (_requestId, handle) => handle(),
  };
}

/**
 * Sets up how a service logs (LOG_FORMAT, LOG_LEVEL) and makes it Nest's logger at once, so that
 * even the lines written before the Nest application exists have the service's format. Call it
 * first when a service starts, and give `logger` to NestFactory.create.
 */
export function useServiceLogging(service: string, settings: LoggingSettings, options: ServiceLoggingOptions = {}): ServiceLogging {
  const logging = settings.LOG_FORMAT === 'json' ? jsonLogging(service, settings, options) : textLogging(settings);
  Logger.overrideLogger(logging.logger);
  return logging;
}
