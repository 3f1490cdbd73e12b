import { MAX_ALERT_BODY_BYTES, MAX_ALERT_NESTING_DEPTH } from '@alert-ingestion/contracts';
import { BodyLimitViolation, JsonBodyLimits } from '@alert-ingestion/gateway-domain';
import { BadRequestError, PayloadTooLargeError } from '@alert-ingestion/http';
import { Readable } from 'node:stream';

/** The request was abandoned by the client before its body was complete: nobody gets an answer. */
export class RequestAbortedError extends Error {
  constructor() {
    super('the client closed the request before its body was complete');
    this.name = 'RequestAbortedError';
  }
}

export function bodyLimitError(violation: BodyLimitViolation): PayloadTooLargeError | BadRequestError {
  switch (violation.kind) {
    case 'too_large':
      return new PayloadTooLargeError(`The request body is larger than ${violation.maxBytes} bytes (1 MiB).`, 'payload_too_large');
    case 'too_deep':
      return new BadRequestError('payload_too_deep', `The request body is nested deeper than ${violation.maxDepth} levels.`);
    case 'not_object_or_array':
      return new BadRequestError('invalid_payload', 'The request body must be a JSON object or an array of JSON objects.');
  }
}

/** What reading a body saw, kept for its delivery also when the body is refused: its first bytes and its size. */
export class BodySeen {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes received (or declared by Content-Length when the body was refused unread). */
  bytes = 0;

  constructor(private readonly keepBytes: number) {}

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.kept >= this.keepBytes) return;
    const part = chunk.length <= this.keepBytes - this.kept ? chunk : chunk.subarray(0, this.keepBytes - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** The first `keepBytes` bytes seen. */
  get start(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }
}

/**
 * Reads a receive request's body while checking the payload limits on every chunk (size, nesting
 * depth, object-or-array). The first violation stops the reading: the rest of the body is
 * discarded as it arrives, never buffered, and the caller answers 413/400 at once. A declared
 * Content-Length above the limit is refused before a byte is read. `seen` keeps the body's first
 * bytes and its size, for the delivery.
 */
export function readAlertBody(body: Readable, contentLength: string | undefined, seen?: BodySeen): Promise<Buffer> {
  const limits = new JsonBodyLimits({ maxBytes: MAX_ALERT_BODY_BYTES, maxDepth: MAX_ALERT_NESTING_DEPTH });
  if (contentLength !== undefined && Number(contentLength) > MAX_ALERT_BODY_BYTES) {
    if (seen) seen.bytes = Number(contentLength);
    body.resume();
    return Promise.reject(bodyLimitError({ kind: 'too_large', maxBytes: MAX_ALERT_BODY_BYTES }));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const cleanup = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const fail = (error: Error) => {
      cleanup();
      // Keep the stream flowing into nothing so the connection is not stuck on a full buffer.
      body.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      seen?.add(chunk);
      const violation = limits.write(chunk);
      if (violation) fail(bodyLimitError(violation));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const violation = limits.end();
      if (violation) reject(bodyLimitError(violation));
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onError = () => fail(new RequestAbortedError());
    const onClose = () => fail(new RequestAbortedError());
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}
