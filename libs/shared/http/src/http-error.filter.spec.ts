import { ArgumentsHost, BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { BadRequestError, ConflictError, ServiceUnavailableError, TooManyRequestsError } from './domain-error';
import { HttpErrorFilter, toErrorResponse } from './http-error.filter';

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

  it('names the field a refusal is about, when there is one', () => {
    expect(toErrorResponse(new BadRequestError('invalid_ends_at', 'ends_at must be in the future.', 'ends_at')).body).toEqual({
      error: 'invalid_ends_at',
      message: 'ends_at must be in the future.',
      field: 'ends_at',
    });
    expect(toErrorResponse(new BadRequestException({ message: ['matchers.0.value must be a string'], field: 'matchers[0].value' })).body).toEqual({
      error: 'validation_failed',
      message: 'matchers.0.value must be a string',
      field: 'matchers[0].value',
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

  it('answers the cause of an Express middleware error that Nest wrapped in an HttpException', () => {
    const thrownInVerify = Object.assign(new BadRequestError('payload_too_deep', 'The request body is nested deeper than 100 levels.'), { statusCode: 400, expose: true });
    expect(toErrorResponse(new HttpException(thrownInVerify.message, 400, { cause: thrownInVerify }))).toMatchObject({
      status: 400,
      body: { error: 'payload_too_deep', message: 'The request body is nested deeper than 100 levels.' },
    });
    const unparsable = Object.assign(new SyntaxError('Unexpected token } in JSON at position 12'), { type: 'entity.parse.failed', status: 400 });
    expect(toErrorResponse(new BadRequestException(unparsable.message, { cause: unparsable }))).toEqual({
      status: 400,
      body: { error: 'invalid_json', message: 'The request body is not valid JSON.' },
    });
  });

  it('hides the details of unexpected errors', () => {
    expect(toErrorResponse(new Error('password=hunter2'))).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'An unexpected error occurred.' },
    });
  });
});

describe('HttpErrorFilter', () => {
  it('gives a message handler its failure back as thrown (no HTTP answer to write), so its consumer retries', () => {
    const failure = new Error('database "alerts" is not currently accepting connections');
    const rpc = { getType: () => 'rpc', switchToHttp: () => ({ getResponse: () => undefined }) } as unknown as ArgumentsHost;
    expect(() => new HttpErrorFilter().catch(failure, rpc)).toThrow(failure);
  });
});
