import { storableJson, storableText } from './storable-json';

describe('storableText and storableJson', () => {
  it('replaces NUL and lone surrogates, keeps valid pairs', () => {
    expect(storableText('a\u0000b')).toBe('a\uFFFDb');
    expect(storableText('x\uD800y')).toBe('x\uFFFDy');
    expect(storableText('x\uDC00')).toBe('x\uFFFD');
    expect(storableText('😀')).toBe('😀');
  });

  it('cleans keys and nested strings', () => {
    expect(storableJson({ 'k\u0000': ['v\u0000', { n: 1 }] })).toEqual({ 'k\uFFFD': ['v\uFFFD', { n: 1 }] });
  });
});
