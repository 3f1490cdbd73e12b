import { describe, expect, it } from 'vitest';
import { emailProblem } from './email';

describe('email addresses in forms', () => {
  it('accepts an address, and nothing for none', () => {
    expect(emailProblem('jane@example.com')).toBeNull();
    expect(emailProblem('  Jane.Doe+alerts@mail.example.org ')).toBeNull();
    expect(emailProblem('')).toBeNull();
  });

  it('says what is wrong with what is no address', () => {
    for (const text of ['jane', 'jane@localhost', 'jane @example.com', 'a@example.com, b@example.com', '@example.com']) {
      expect(emailProblem(text)).toBe('Enter an email address, such as jane@example.com.');
    }
    expect(emailProblem(`${'x'.repeat(250)}@example.com`)).toBe('An email address has at most 254 characters.');
  });
});
