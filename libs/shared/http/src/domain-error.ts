/**
 * Errors that carry their HTTP meaning. Services throw these; HttpErrorFilter turns them into
 * `{error, message}` (CONTRACT.md) in one place, so no controller maps errors by hand.
 * `code` is a stable snake_case identifier clients can branch on; `message` is for people.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds a client should wait before retrying (sets `Retry-After`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends DomainError {
  constructor(code: string, message: string) {
    super(400, code, message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'A valid token is required.', code = 'unauthorized') {
    super(401, code, message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, code = 'not_found') {
    super(404, code, message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(message: string, code = 'payload_too_large') {
    super(413, code, message);
  }
}

export class UnprocessableEntityError extends DomainError {
  constructor(message: string, code = 'unprocessable_entity') {
    super(422, code, message);
  }
}

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
