/** Request headers as Node and Express give them. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * The token a request presents (CONTRACT.md "Management API"): `PRIVATE-TOKEN: <token>` first, as
 * GitLab reads it, then `Authorization: Bearer <token>`. Any other Authorization scheme presents no
 * token. Every service reads it this way, so a request is never let in by one and refused by another.
 */
export function presentedToken(headers: RequestHeaders): string | undefined {
  const privateToken = headers['private-token'];
  if (typeof privateToken === 'string' && privateToken.trim() !== '') return privateToken.trim();
  const authorization = headers['authorization'];
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return undefined;
}
