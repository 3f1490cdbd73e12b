import { canonicalJson, isJsonObject, valueAtPath, withoutPaths } from './json';

describe('isJsonObject', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['{}', false],
    [1, false],
    [undefined, false],
  ])('%j -> %s', (value, expected) => {
    expect(isJsonObject(value)).toBe(expected);
  });
});

describe('canonicalJson', () => {
  it('ignores object key order at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }));
  });

  it('keeps array order significant', () => {
    expect(canonicalJson(['a', 'b'])).not.toBe(canonicalJson(['b', 'a']));
  });

  it('keeps arrays unambiguous when items contain separators', () => {
    expect(canonicalJson(['a,b'])).not.toBe(canonicalJson(['a', 'b']));
    expect(canonicalJson(['a', 'b'])).not.toBe(canonicalJson('a,b'));
    expect(canonicalJson(['1'])).not.toBe(canonicalJson([1]));
  });

  it('writes compact JSON with sorted keys', () => {
    expect(canonicalJson({ z: 'x"y', a: [true, false, null, 1.5] })).toBe('{"a":[true,false,null,1.5],"z":"x\\"y"}');
  });
});

describe('valueAtPath', () => {
  const payload = { a: { b: [10, { c: 'deep' }] }, 'x.y': 1, n: null, o: { '0': 'key zero' } };

  it('follows object keys and array indices', () => {
    expect(valueAtPath(payload, ['a', 'b', 1, 'c'])).toBe('deep');
    expect(valueAtPath(payload, ['a', 'b', 0])).toBe(10);
    expect(valueAtPath(payload, ['x.y'])).toBe(1);
    expect(valueAtPath(payload, ['n'])).toBeNull();
  });

  it('is undefined for missing paths', () => {
    expect(valueAtPath(payload, ['a', 'b', 5])).toBeUndefined();
    expect(valueAtPath(payload, ['a', 'missing'])).toBeUndefined();
    expect(valueAtPath(payload, ['a', 'b', 'c'])).toBeUndefined();
    expect(valueAtPath(payload, ['constructor'])).toBeUndefined();
    expect(valueAtPath(payload, ['a', 'b', -1])).toBeUndefined();
    expect(valueAtPath(payload, ['a', 'b', 0.5])).toBeUndefined();
  });

  it('keeps array indices and object keys apart', () => {
    expect(valueAtPath(payload, ['o', '0'])).toBe('key zero');
    expect(valueAtPath(payload, ['o', 0])).toBeUndefined();
    expect(valueAtPath(payload, ['a', 'b', '0'])).toBeUndefined();
  });
});

describe('withoutPaths', () => {
  it('removes keys and array items without changing the input', () => {
    const payload = { a: 1, b: { c: 2, d: [1, 2, 3] } };
    expect(withoutPaths(payload, [['a'], ['b', 'd', 1], ['missing', 'x']])).toEqual({ b: { c: 2, d: [1, 3] } });
    expect(payload).toEqual({ a: 1, b: { c: 2, d: [1, 2, 3] } });
  });
});
