import { escapeUnstorableCharacters, findUnstorableText, firstUnstorableCharacter, jsonEscape } from './unstorable-text';

describe('text PostgreSQL cannot store', () => {
  it('finds NUL and unpaired surrogates, and nothing in paired ones or look-alike escapes', () => {
    expect(firstUnstorableCharacter('a\u0000b')).toBe('\u0000');
    expect(firstUnstorableCharacter('x\uD800y')).toBe('\uD800');
    expect(firstUnstorableCharacter('x\uDC00')).toBe('\uDC00');
    expect(firstUnstorableCharacter('\uDC00\uD800')).toBe('\uDC00');
    expect(firstUnstorableCharacter('😀 and \\u0000 and \uFFFD')).toBeNull();
    expect(firstUnstorableCharacter('')).toBeNull();
  });

  it('writes them as the JSON escapes JSON.stringify uses, and leaves the rest alone', () => {
    expect(jsonEscape('\u0000')).toBe('\\u0000');
    expect(escapeUnstorableCharacters('a\u0000b')).toBe('a\\u0000b');
    expect(escapeUnstorableCharacters('a\u0000b').length).toBe(8);
    expect(escapeUnstorableCharacters('x\uD800y\uDC00')).toBe('x\\ud800y\\udc00');
    expect(escapeUnstorableCharacters('😀\uFFFD')).toBe('😀\uFFFD');
    for (const text of ['a\u0000b', 'x\uD800y', '\uDFFF']) expect(JSON.stringify(text)).toBe(`"${escapeUnstorableCharacters(text)}"`);
  });

  it('names the first place in a JSON value: a string by its path, or a key by its object', () => {
    expect(findUnstorableText({ name: 'ok', list: [{ a: 'fine' }, { b: ['x', 'y\u0000'] }] })).toEqual({ path: ['list', 1, 'b', 1], inKey: false, character: '\u0000' });
    expect(findUnstorableText({ outer: { 'k\uDBFF': 1 } })).toEqual({ path: ['outer'], inKey: true, character: '\uDBFF' });
    expect(findUnstorableText('top\u0000')).toEqual({ path: [], inKey: false, character: '\u0000' });
    expect(findUnstorableText({ n: 1, b: true, z: null, s: 'plain' })).toBeNull();
  });
});
