import { findUnstorableText, firstUnstorableCharacter, JsonPathStep, UnstorableTextFound } from '@alert-ingestion/json';
import type { RequestHandler } from 'express';
import { BadRequestError } from './domain-error';

/** `payload_field_mapping[0].path[1]`: a place in a body or query as a client names it. */
export function fieldPath(path: readonly JsonPathStep[]): string {
  return path.map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`)).join('');
}

function characterName(character: string): string {
  const code = character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return character === '\u0000' ? `a NUL character (U+${code})` : `an unpaired UTF-16 surrogate (U+${code})`;
}

function placeOf(found: UnstorableTextFound, source: 'query' | 'body'): string {
  const field = fieldPath(found.path);
  if (source === 'query') {
    if (found.inKey) return field === '' ? 'The name of a query parameter' : `A key of the query parameter ${field}`;
    return `The query parameter ${field}`;
  }
  if (found.inKey) return field === '' ? 'The name of a field' : `A key of the field ${field}`;
  return field === '' ? 'The request body' : `The field ${field}`;
}

/** The 400 for text PostgreSQL cannot store, naming where it is. */
function unstorableTextError(found: UnstorableTextFound, source: 'query' | 'body'): BadRequestError {
  return new BadRequestError('invalid_text', `${placeOf(found, source)} contains ${characterName(found.character)}, which text may not contain.`);
}

/** The first text of a request (its path, query parameters, then parsed body) that PostgreSQL cannot store. */
export function unstorableRequestText(request: { path: string; query: unknown; body: unknown }): BadRequestError | null {
  for (const segment of request.path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      continue; // not a valid escape: routing answers it
    }
    const character = firstUnstorableCharacter(decoded);
    if (character !== null) return new BadRequestError('invalid_text', `The path contains ${characterName(character)}, which text may not contain.`);
  }
  const inQuery = findUnstorableText(request.query);
  if (inQuery) return unstorableTextError(inQuery, 'query');
  const inBody = findUnstorableText(request.body);
  if (inBody) return unstorableTextError(inBody, 'body');
  return null;
}

/**
 * One input policy for every route of every service (docs/operating.md "Input policy and limits"): text with
 * NUL or an unpaired UTF-16 surrogate, in the path, a query parameter or a body field, is refused
 * with 400 `invalid_text` naming where it is. PostgreSQL cannot store such text (a NUL is a 500,
 * a lone surrogate silently becomes U+FFFD), and no field of the APIs has a use for it. Installed
 * after the body parsers and before any route, so guards, handlers and the alerts proxy only ever
 * see text that can be stored. Alert payloads at the gateway's receiving URL are not held to it:
 * they are kept as sent (see libs/shared/alerts-domain storable-text).
 */
export function inputPolicy(): RequestHandler {
  return (request, _response, next) => next(unstorableRequestText(request) ?? undefined);
}
