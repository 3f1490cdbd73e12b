import { secretMatchesSha256, sha256Hex } from './secret-digest';

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 text', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('secretMatchesSha256', () => {
  const secret = 'f1c2a7d0e6b94c1d8a3e5f7b9c0d2e4f';
  const digest = sha256Hex(secret);

  it('accepts the secret whose SHA-256 is stored', () => {
    expect(secretMatchesSha256(secret, digest)).toBe(true);
  });

  it('refuses another secret, a prefix of it and an empty one', () => {
    expect(secretMatchesSha256('wrong', digest)).toBe(false);
    expect(secretMatchesSha256(secret.slice(0, -1), digest)).toBe(false);
    expect(secretMatchesSha256(`${secret} `, digest)).toBe(false);
    expect(secretMatchesSha256('', digest)).toBe(false);
  });

  it('never matches a malformed stored digest', () => {
    expect(secretMatchesSha256(secret, '')).toBe(false);
    expect(secretMatchesSha256(secret, digest.slice(0, 62))).toBe(false);
    expect(secretMatchesSha256(secret, 'zz'.repeat(32))).toBe(false);
    expect(secretMatchesSha256(secret, 'not-hex')).toBe(false);
  });

  it('compares digests, so uppercase hex of the right digest still matches', () => {
    expect(secretMatchesSha256(secret, digest.toUpperCase())).toBe(true);
  });
});
