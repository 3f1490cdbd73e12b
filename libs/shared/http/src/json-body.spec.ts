import { MAX_API_BODY_BYTES, MAX_API_NESTING_DEPTH, MAX_MANAGEMENT_BODY_BYTES } from '@alert-ingestion/contracts';
import { API_JSON_BODY_LIMITS, bodyLimitError, readableSize } from './json-body';

describe('JSON body limits', () => {
  it('are 100 KiB and 100 levels for an API, 3 MiB for the management API', () => {
    expect(API_JSON_BODY_LIMITS).toEqual({ maxBytes: 100 * 1024, maxDepth: 100 });
    expect([MAX_API_BODY_BYTES, MAX_API_NESTING_DEPTH, MAX_MANAGEMENT_BODY_BYTES]).toEqual([102_400, 100, 3_145_728]);
  });

  it('writes sizes as people read them', () => {
    expect(readableSize(1_048_576)).toBe('1 MiB');
    expect(readableSize(3_145_728)).toBe('3 MiB');
    expect(readableSize(102_400)).toBe('100 KiB');
    expect(readableSize(1_500)).toBe('1500 bytes');
  });

  it('answers 413 for the size and 400 for the depth and the shape, naming the limit', () => {
    const answer = (error: ReturnType<typeof bodyLimitError>) => ({ status: error.status, error: error.code, message: error.message });
    expect(answer(bodyLimitError({ kind: 'too_large', maxBytes: 1_048_576 }))).toEqual({
      status: 413,
      error: 'payload_too_large',
      message: 'The request body is larger than 1048576 bytes (1 MiB).',
    });
    expect(answer(bodyLimitError({ kind: 'too_deep', maxDepth: 100 }))).toEqual({
      status: 400,
      error: 'payload_too_deep',
      message: 'The request body is nested deeper than 100 levels.',
    });
    expect(answer(bodyLimitError({ kind: 'not_object_or_array' }))).toMatchObject({ status: 400, error: 'invalid_payload' });
  });
});
