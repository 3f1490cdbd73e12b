import { normaliseEmail } from './user-email';

describe('user email addresses', () => {
  it('stores an address trimmed and lower-case, so one address names one account', () => {
    expect(normaliseEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });

  it('takes an empty or missing address as none', () => {
    expect(normaliseEmail('')).toBeNull();
    expect(normaliseEmail('   ')).toBeNull();
    expect(normaliseEmail(null)).toBeNull();
    expect(normaliseEmail(undefined)).toBeNull();
  });
});
