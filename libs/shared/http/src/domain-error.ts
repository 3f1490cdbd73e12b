/**
 * Errors that carry their HTTP meaning. Services throw these; HttpErrorFilter turns them into
 * `{error, message}` (CONTRACT.md) in one place, so no controller maps errors by hand.
 * `code` is a stable snake_case identifier clients can branch on; `message` is for people.
 */
import type { HttpSchemas } from '@alert-ingestion/contracts/http';

export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds a client should wait before retrying (sets `Retry-After`). */
    readonly retryAfterSeconds?: number,
    /** The request field the error is about, as the client names it (`matchers[0].value`): forms show the error there. */
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends DomainError {
  constructor(code: string, message: string, field?: string) {
    super(400, code, message, undefined, field);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'A valid token is required.', code = 'unauthorized') {
    super(401, code, message);
  }
}

/** The DomainError of one status whose code, unless given, is `defaultCode`. */
function statusError(status: number, defaultCode: string) {
  return class extends DomainError {
    constructor(message: string, code = defaultCode, field?: string) {
      super(status, code, message, undefined, field);
    }
  };
}

export class ForbiddenError extends statusError(403, 'forbidden') {}
export class NotFoundError extends statusError(404, 'not_found') {}
export class ConflictError extends statusError(409, 'conflict') {}
/** A write made against another version than the current one (`If-Match`). */
export class PreconditionFailedError extends statusError(412, 'precondition_failed') {}
export class PayloadTooLargeError extends statusError(413, 'payload_too_large') {}
export class UnprocessableEntityError extends statusError(422, 'unprocessable_entity') {}

export class TooManyRequestsError extends DomainError {
  constructor(message: string, retryAfterSeconds: number, code = 'rate_limited') {
    super(429, code, message, retryAfterSeconds);
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(message: string, retryAfterSeconds: number, code = 'service_unavailable') {
    super(503, code, message, retryAfterSeconds);
  }
}

/** A problem of a document, at its JSON pointer (`/schedules/0/time_zone`). */
export type DocumentProblem = HttpSchemas['DocumentProblemDto'];

/** A document refused whole, with every problem found (the answer's `errors`); nothing of it is applied. */
export class InvalidDocumentError extends DomainError {
  constructor(
    message: string,
    readonly errors: readonly DocumentProblem[],
  ) {
    super(400, 'invalid_document', message);
  }
}
