import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { HttpSchemas } from '@alert-ingestion/contracts/http';
import type { Response } from 'express';
import { DomainError, InvalidDocumentError } from './domain-error';
import { bodyLimitError } from './json-body';

/** Every refusal's body: `{error, message}`, the request field it is about, a refused document's problems. */
export type ErrorBody = HttpSchemas['ErrorBodyDto'];

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** Errors thrown by express's body parsers before Nest routing (`type` is body-parser's). */
interface BodyParserError {
  type: string;
  status: number;
  message: string;
  /** The size limit (bytes) of an `entity.too.large` error. */
  limit?: unknown;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { type?: unknown }).type === 'string' &&
    typeof (error as { status?: unknown }).status === 'number'
  );
}

function fromHttpException(exception: HttpException): ErrorBody {
  const status = exception.getStatus();
  const response = exception.getResponse();
  const code = CODE_BY_STATUS[status] ?? `http_${status}`;
  if (typeof response === 'string') return { error: code, message: response };
  const { message, field } = response as { message?: unknown; field?: unknown };
  // ValidationPipe reports one message per failed constraint (and FieldNamingValidationPipe the first field in error).
  if (Array.isArray(message)) return { error: 'validation_failed', message: message.join('; '), ...(typeof field === 'string' && { field }) };
  return { error: code, message: typeof message === 'string' ? message : exception.message };
}

/** A Retry-After header value: whole seconds, at least 1. */
export function retryAfterHeader(seconds: number): string {
  return String(Math.max(1, Math.ceil(seconds)));
}

/** Maps every error to the contract's `{error, message}` body; unknown errors become a 500 without internals. */
export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody; retryAfterSeconds?: number } {
  // Nest's Express adapter hands the errors of Express middleware (body-parser's, and ours thrown
  // from its verify hook) on as an HttpException whose cause is the error itself: answer the cause.
  const cause = exception instanceof HttpException ? exception.cause : undefined;
  if (cause instanceof DomainError || isBodyParserError(cause)) return toErrorResponse(cause);
  if (exception instanceof DomainError) {
    return {
      status: exception.status,
      body: {
        error: exception.code,
        message: exception.message,
        ...(exception.field !== undefined && { field: exception.field }),
        ...(exception instanceof InvalidDocumentError && { errors: [...exception.errors] }),
      },
      retryAfterSeconds: exception.retryAfterSeconds,
    };
  }
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), body: fromHttpException(exception) };
  }
  if (isBodyParserError(exception)) {
    if (exception.type === 'entity.parse.failed') {
      return { status: 400, body: { error: 'invalid_json', message: 'The request body is not valid JSON.' } };
    }
    if (exception.type === 'entity.too.large') {
      if (typeof exception.limit === 'number') return toErrorResponse(bodyLimitError({ kind: 'too_large', maxBytes: exception.limit }));
      return { status: 413, body: { error: 'payload_too_large', message: 'The request body is too large.' } };
    }
    if (exception.status >= 400 && exception.status < 500) {
      return { status: exception.status, body: { error: CODE_BY_STATUS[exception.status] ?? 'bad_request', message: exception.message } };
    }
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { error: 'internal_error', message: 'An unexpected error occurred.' },
  };
}

/**
 * Every HTTP error as `{error, message}` with its status (toErrorResponse). An app that also takes
 * messages (the processor's Kafka handlers, which inherit the app's filters) gets their failures
 * back as they were thrown: the consumer then retries and restarts from its committed offset, as it
 * does for any failed chunk; there is no HTTP answer to write.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, retryAfterSeconds } = toErrorResponse(exception);
    if (status >= 500 && !(exception instanceof DomainError)) {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    }
    if (response.headersSent) return;
    if (retryAfterSeconds !== undefined) response.setHeader('Retry-After', retryAfterHeader(retryAfterSeconds));
    response.status(status).json(body);
  }
}
