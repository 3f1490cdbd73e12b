/**
 * Reads the authorization key a caller presents (spec section 5):
 * - `Authorization: Bearer <authorization_key>`;
 * - `Authorization: Basic base64(":<authorization_key>")`: blank username, the key as password.
 *   Credentials written in the URL (`http://:<authorization_key>@host/...`) reach us in this form,
 *   because HTTP clients turn URL user info into a Basic header.
 * Anything else (another scheme, a non-blank username, malformed base64) presents no key.
 */
export function presentedAuthorizationKey(authorizationHeader: string | undefined): string | null {
  if (!authorizationHeader) return null;
  const match = /^([A-Za-z]+)[ \t]+(.+)$/.exec(authorizationHeader.trim());
  if (!match) return null;
  const scheme = match[1].toLowerCase();
  const credentials = match[2].trim();
  if (scheme === 'bearer') return credentials.length > 0 ? credentials : null;
  if (scheme === 'basic') return keyFromBasicCredentials(credentials);
  return null;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

function keyFromBasicCredentials(encoded: string): string | null {
  // Buffer.from(…, 'base64') silently skips invalid characters; reject them instead of guessing.
  if (!BASE64.test(encoded)) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator === -1) return null;
  const username = decoded.slice(0, separator);
  const password = decoded.slice(separator + 1);
  // Spec section 5: "the username is blank, the password is the authorization key".
  if (username !== '' || password === '') return null;
  return password;
}
