import { presentedAuthorizationKey } from './authorization-credentials';

const basic = (userAndPassword: string) => `Basic ${Buffer.from(userAndPassword, 'utf8').toString('base64')}`;

describe('presentedAuthorizationKey', () => {
  it('reads a Bearer key, whatever the scheme case', () => {
    expect(presentedAuthorizationKey('Bearer abc123')).toBe('abc123');
    expect(presentedAuthorizationKey('bearer   abc123  ')).toBe('abc123');
    expect(presentedAuthorizationKey('BEARER\tabc123')).toBe('abc123');
  });

  it('reads Basic credentials with a blank username and the key as password', () => {
    expect(presentedAuthorizationKey(basic(':s3cr3t-key'))).toBe('s3cr3t-key');
    expect(presentedAuthorizationKey(`basic ${Buffer.from(':k').toString('base64')}`)).toBe('k');
  });

  it('keeps colons that belong to the password', () => {
    expect(presentedAuthorizationKey(basic(':a:b:c'))).toBe('a:b:c');
  });

  it('accepts unpadded base64', () => {
    const unpadded = Buffer.from(':key1').toString('base64').replace(/=+$/, '');
    expect(presentedAuthorizationKey(`Basic ${unpadded}`)).toBe('key1');
  });

  it('presents no key for a non-blank username, a missing password or no colon', () => {
    expect(presentedAuthorizationKey(basic('admin:s3cr3t'))).toBeNull();
    expect(presentedAuthorizationKey(basic(':'))).toBeNull();
    expect(presentedAuthorizationKey(basic('s3cr3t'))).toBeNull();
  });

  it('presents no key for malformed base64', () => {
    expect(presentedAuthorizationKey('Basic !!not-base64!!')).toBeNull();
    expect(presentedAuthorizationKey('Basic abc=def')).toBeNull();
  });

  it('presents no key for a missing header, an empty value or another scheme', () => {
    expect(presentedAuthorizationKey(undefined)).toBeNull();
    expect(presentedAuthorizationKey('')).toBeNull();
    expect(presentedAuthorizationKey('Bearer')).toBeNull();
    expect(presentedAuthorizationKey('Bearer    ')).toBeNull();
    expect(presentedAuthorizationKey('Token abc123')).toBeNull();
    expect(presentedAuthorizationKey('abc123')).toBeNull();
    expect(presentedAuthorizationKey('Digest username="x"')).toBeNull();
  });
});
