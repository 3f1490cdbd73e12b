import { MAX_API_BODY_BYTES, MAX_API_NESTING_DEPTH } from '@alert-ingestion/contracts';
import { BodyLimitViolation, JsonBodyLimitOptions, JsonBodyLimits } from '@alert-ingestion/json';
import express, { RequestHandler } from 'express';
import { BadRequestError, DomainError, PayloadTooLargeError } from './domain-error';

/** The JSON body limits of an HTTP API unless its service sets others (docs/operating.md "Input policy and limits"). */
export const API_JSON_BODY_LIMITS: JsonBodyLimitOptions = { maxBytes: MAX_API_BODY_BYTES, maxDepth: MAX_API_NESTING_DEPTH };

const KIB = 1024;
const MIB = 1024 * KIB;

/** `1 MiB`, `100 KiB`, or `1500 bytes`: a size limit as people read it. */
export function readableSize(bytes: number): string {
  if (bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes} bytes`;
}

/** The answer to a body that breaks a limit: 413 for its size, 400 for its depth or its shape. */
export function bodyLimitError(violation: BodyLimitViolation): PayloadTooLargeError | BadRequestError {
  switch (violation.kind) {
    case 'too_large':
      return new PayloadTooLargeError(`The request body is larger than ${violation.maxBytes} bytes (${readableSize(violation.maxBytes)}).`, 'payload_too_large');
    case 'too_deep':
      return new BadRequestError('payload_too_deep', `The request body is nested deeper than ${violation.maxDepth} levels.`);
    case 'not_object_or_array':
      return new BadRequestError('invalid_payload', 'The request body must be a JSON object or an array of JSON objects.');
  }
}

/**
 * The JSON body parser of every service's API: express's (body-parser: Content-Type matching,
 * charsets, compressed bodies, a size limit checked while reading), with the body's nesting checked
 * by JsonBodyLimits before JSON.parse builds it, so that a body nested thousands deep is a 400 and
 * never reaches code that walks it recursively (class-transformer, validation). A body above the
 * size limit is a 413 naming the limit (toErrorResponse); a charset other than UTF-8 is a 415.
 */
export function jsonBodyParser(limits: JsonBodyLimitOptions = API_JSON_BODY_LIMITS): RequestHandler {
  return express.json({
    limit: limits.maxBytes,
    verify: (_request, _response, body, encoding) => {
      // RFC 8259: JSON between systems is UTF-8, and the limits read the body's bytes as UTF-8.
      if (encoding !== 'utf-8') throw new DomainError(415, 'unsupported_charset', `JSON bodies must be UTF-8, not ${encoding}.`);
      const violation = new JsonBodyLimits(limits).write(body);
      // The shape (an object or an array) is body-parser's own strict check, answered as invalid JSON.
      if (violation && violation.kind !== 'not_object_or_array') throw bodyLimitError(violation);
    },
  });
}
