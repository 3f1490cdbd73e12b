import type { LoggerService } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino } from 'pino';

/** A pino logging method called with whatever Nest's Logger API was given. */
type LineWriter = (fields: Record<string, unknown>, ...rest: unknown[]) => void;

/**
 * Nest's Logger API over pino. Nest calls `log(message, ...params, context)`: the context (the last
 * parameter, when there is one) becomes the line's `context` field; a message object gives its
 * fields (an Error goes under `err`), a string message is the line's message, formatted with the
 * remaining parameters as pino formats them.
 *
 * `runInContext` keeps a child logger in an AsyncLocalStorage, so every line written through this
 * logger while a request is handled (also in the promises and timers started meanwhile) carries
 * the request's bindings.
 */
export class PinoNestLogger implements LoggerService {
  private readonly contextLogger = new AsyncLocalStorage<pino.Logger>();

  constructor(private readonly root: pino.Logger) {}

  /** Runs `handle` (and what it starts) with `bindings` on every line written through this logger meanwhile. */
  runInContext<T>(bindings: pino.Bindings, handle: () => T): T {
    return this.contextLogger.run(this.root.child(bindings), handle);
  }

  // Nest's Logger API, level by level (verbose is pino's trace, log its info).
  verbose = (message: unknown, ...optionalParams: unknown[]): void => this.write('trace', message, optionalParams);
  debug = (message: unknown, ...optionalParams: unknown[]): void => this.write('debug', message, optionalParams);
  log = (message: unknown, ...optionalParams: unknown[]): void => this.write('info', message, optionalParams);
  warn = (message: unknown, ...optionalParams: unknown[]): void => this.write('warn', message, optionalParams);
  error = (message: unknown, ...optionalParams: unknown[]): void => this.write('error', message, optionalParams);
  fatal = (message: unknown, ...optionalParams: unknown[]): void => this.write('fatal', message, optionalParams);

  private write(level: pino.Level, message: unknown, optionalParams: unknown[]): void {
    const logger = this.contextLogger.getStore() ?? this.root;
    const line = logger[level].bind(logger) as LineWriter;
    const fields: Record<string, unknown> = {};
    let params = optionalParams;
    if (optionalParams.length > 0) {
      fields['context'] = optionalParams[optionalParams.length - 1];
      params = optionalParams.slice(0, -1);
    }
    if (typeof message === 'object') {
      if (message instanceof Error) fields['err'] = message;
      else Object.assign(fields, message);
      line(fields, ...params);
    } else if (typeof message === 'string' && isExceptionHandlerError(level, params)) {
      const error = new Error(message);
      error.stack = params[0];
      fields['err'] = error;
      line(fields);
    } else {
      line(fields, message, ...params);
    }
  }
}

/**
 * Nest's exception handlers call `error(message, stack, context)`: the stack is kept with the
 * message as an `err` field rather than formatted into the message.
 */
function isExceptionHandlerError(level: pino.Level, params: unknown[]): params is [string] {
  return level === 'error' && params.length === 1 && typeof params[0] === 'string' && /\n\s*at /.test(params[0]);
}
