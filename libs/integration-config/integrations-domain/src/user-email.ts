/**
 * A user's email address as stored: trimmed and lower-case, so one address names one account
 * whatever its case (users_email_key is unique); empty or null: no address (the user gets no email).
 * Whether it is an address at all is the request's validation (IsEmail).
 */
export function normaliseEmail(email: string | null | undefined): string | null {
  const trimmed = email?.trim() ?? '';
  return trimmed === '' ? null : trimmed.toLowerCase();
}
