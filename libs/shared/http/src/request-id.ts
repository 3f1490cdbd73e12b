import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header that names a request (CONTRACT.md "Across all services"), in requests and in every response. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * A caller's id is taken when it is 1 to 255 printable ASCII characters without spaces, so it can
 * be written back in a header and into a log line as it is. Anything else (also a repeated header,
 * which Node joins with ", ") is replaced.
 */
const ACCEPTABLE_REQUEST_ID = /^[\x21-\x7e]{1,255}$/;

/** The caller's X-Request-Id when it is acceptable, else undefined. */
export function acceptableRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && ACCEPTABLE_REQUEST_ID.test(header) ? header : undefined;
}

/** The id of a request: the caller's X-Request-Id when acceptable, else a new UUID v4. */
export function requestIdOf(header: string | string[] | undefined): string {
  return acceptableRequestId(header) ?? randomUUID();
}

/** A request once its id is known: pino-http and the handlers read it as `request.id`. */
export interface IdentifiedRequest extends IncomingMessage {
  id: string;
}

/** The id of the request being handled, as a handler parameter: for a call the request makes on to another service. */
export const RequestId = createParamDecorator((_data: unknown, context: ExecutionContext): string => context.switchToHttp().getRequest<IdentifiedRequest>().id);
