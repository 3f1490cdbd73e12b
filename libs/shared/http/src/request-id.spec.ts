import { acceptableRequestId, requestIdOf } from './request-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('acceptableRequestId', () => {
  it.each([['a'], ['0b6f1f9e-5d8a-4c56-9a0e-5b1c2f3d4e5f'], ['trace:1234/ABC_def.~!"\\'], ['x'.repeat(255)]])('takes %j', (id) => {
    expect(acceptableRequestId(id)).toBe(id);
  });

  it.each([
    ['no header', undefined],
    ['an empty one', ''],
    ['256 characters', 'x'.repeat(256)],
    ['a space', 'two words'],
    ['a leading space', ' id'],
    ['a tab', 'a\tb'],
    ['a line break', 'a\nb'],
    ['DEL', 'a\x7fb'],
    ['a non-ASCII character', 'caf\u00e9'],
    ['a repeated header', ['one', 'two']],
  ])('refuses %s', (_, header) => {
    expect(acceptableRequestId(header)).toBeUndefined();
  });
});

describe('requestIdOf', () => {
  it("keeps an acceptable caller's id and replaces anything else by a new UUID v4", () => {
    expect(requestIdOf('caller-1')).toBe('caller-1');
    const made = [requestIdOf(undefined), requestIdOf('two words')];
    expect(made[0]).toMatch(UUID_V4);
    expect(made[1]).toMatch(UUID_V4);
    expect(made[0]).not.toBe(made[1]);
  });
});
