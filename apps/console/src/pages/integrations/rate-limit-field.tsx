import { NumberSettingCheck, NumberSettingField, NumberSettingProps } from '@console/components/number-setting-field';

/**
 * The rate limit as typed: empty is the gateway's default (null), else a whole number of requests
 * per minute from 1 (CONTRACT.md "Integrations"; the API checks it again, with its upper bound).
 */
export function checkRateLimit(text: string): NumberSettingCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: 'Enter a whole number of requests per minute (1 or more), or leave it empty for the default.' };
  const value = Number(trimmed);
  if (value < 1) return { ok: false, message: 'The rate limit is at least 1 request per minute; leave it empty for the default.' };
  if (!Number.isSafeInteger(value)) return { ok: false, message: 'This number is too large for a rate limit.' };
  return { ok: true, value };
}

/**
 * "Rate limit (requests per minute)" of an HTTP Endpoint, checked while typing. `error`: a refusal
 * the check cannot know (the API's upper bound), shown in place of the hint until the value changes.
 */
export function RateLimitField(props: NumberSettingProps) {
  return (
    <NumberSettingField
      {...props}
      label="Rate limit (requests per minute)"
      placeholder="Default"
      check={checkRateLimit}
      hint={() => 'Requests to the URL beyond this many per minute are refused with 429 and Retry-After. Empty: the gateway’s default.'}
    />
  );
}
