/**
 * What the form says about an email address before sending it (the API checks it again and has the
 * last word): empty is fine (no address), else one address, `name@domain.tld`, without spaces.
 */
export function emailProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return null;
  if (value.length > 254) return 'An email address has at most 254 characters.';
  if (!/^[^\s@,;<>]+@[^\s@,;<>]+\.[A-Za-z]{2,}$/.test(value)) return 'Enter an email address, such as jane@example.com.';
  return null;
}
