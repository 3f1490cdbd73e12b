/**
 * The receiving URL of an integration (spec 4.1: "the integration's own URL"; its path shape is
 * "not shown", so it is ours): `<GATEWAY_PUBLIC_URL>/alerts/notify/<url_token>.json`. The url token
 * is the unguessable identifier; the `.json` suffix follows the GitLab-style receiving URLs users
 * already know. integration-config shows this URL, the gateway serves INTEGRATION_URL_PATH, and both
 * build it here so they cannot drift apart.
 */
export const INTEGRATION_URL_PATH = '/alerts/notify/:url_token.json';

export function integrationUrl(publicBaseUrl: string, urlToken: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/alerts/notify/${encodeURIComponent(urlToken)}.json`;
}
