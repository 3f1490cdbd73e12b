import { MAX_ALERT_BODY_BYTES, MAX_ALERT_NESTING_DEPTH } from '@alert-ingestion/contracts';
import { bodyLimitError } from '@alert-ingestion/http';
import { JsonBodyLimits } from '@alert-ingestion/json';
import { Readable } from 'node:stream';

/** The request was abandoned by the client before its body was complete: nobody gets an answer. */
export class RequestAbortedError extends Error {
  constructor() {
    super('the client closed the request before its body was complete');
    this.name = 'RequestAbortedError';
  }
}

/**
 * What reading a body saw, for its delivery also when the body is refused: the bytes received (all
 * of them once complete; up to the chunk that broke a limit otherwise) and the body's size (as
 * Content-Length declared it when the body was refused unread).
 */
export interface BodySeen {
  received: Buffer;
  bytes: number;
}

/**
 * Reads a receive request's body while checking the payload limits on every chunk (size, nesting
 * depth, object-or-array). The first violation stops the reading: the rest of the body is
 * discarded as it arrives, never buffered, and the caller answers 413/400 at once. A declared
 * Content-Length above the limit is refused before a byte is read. `seen` is filled in when the
 * reading ends, either way.
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
    const received = () => {
      const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      if (seen) {
        seen.received = all;
        seen.bytes = limits.receivedBytes;
      }
      return all;
    };
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
      chunks.push(chunk);
      const violation = limits.write(chunk);
      if (violation) {
        received();
        fail(bodyLimitError(violation));
      }
    };
    const onEnd = () => {
      cleanup();
      const all = received();
      const violation = limits.end();
      if (violation) reject(bodyLimitError(violation));
      else resolve(all);
    };
    const onError = () => fail(new RequestAbortedError());
    const onClose = () => fail(new RequestAbortedError());
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}
