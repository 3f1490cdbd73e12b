import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ConflictError, ServiceUnavailableError, TooManyRequestsError } from './domain-error';
import { toErrorResponse } from './http-error.filter';

describe('toErrorResponse', () => {
  it('keeps a domain error\'s status, code and message', () => {
    expect(toErrorResponse(new ConflictError('name is taken', 'name_taken'))).toEqual({
      status: 409,
      body: { error: 'name_taken', message: 'name is taken' },
      retryAfterSeconds: undefined,
    });
  });

  it('carries Retry-After for rate limits and unavailability', () => {
    expect(toErrorResponse(new TooManyRequestsError('slow down', 7)).retryAfterSeconds).toBe(7);
    expect(toErrorResponse(new ServiceUnavailableError('kafka down', 2))).toMatchObject({ status: 503, retryAfterSeconds: 2 });
  });

  it('joins validation messages', () => {
    const result = toErrorResponse(new BadRequestException(['path must be a string', 'tier must be one of free, premium']));
    expect(result).toEqual({
      status: 400,
      body: { error: 'validation_failed', message: 'path must be a string; tier must be one of free, premium' },
    });
  });

  it('names Nest HTTP exceptions by status', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /nope'))).toEqual({
      status: 404,
      body: { error: 'not_found', message: 'Cannot GET /nope' },
    });
  });

  it('maps body-parser failures to 400 and 413', () => {
    expect(toErrorResponse(Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_json' },
    });
    expect(toErrorResponse(Object.assign(new Error('too large'), { type: 'entity.too.large', status: 413 }))).toMatchObject({ status: 413 });
  });

  it('hides the details of unexpected errors', () => {
    expect(toErrorResponse(new Error('password=hunter2'))).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'An unexpected error occurred.' },
    });
  });
});
