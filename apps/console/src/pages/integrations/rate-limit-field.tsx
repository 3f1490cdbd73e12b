import { Ref, useId } from 'react';

export type RateLimitCheck = { ok: true; value: number | null } | { ok: false; message: string };

/**
 * The rate limit as typed: empty is the gateway's default (null), else a whole number of requests
 * per minute from 1 (CONTRACT.md "Integrations"; the API checks it again, with its upper bound).
 */
export function checkRateLimit(text: string): RateLimitCheck {
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
export function RateLimitField({
  value,
  onChange,
  error,
  inputRef,
}: {
  value: string;
  onChange(value: string): void;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const check = checkRateLimit(value);
  const invalid = Boolean(error) || !check.ok;
  return (
    <div className="field">
      <label htmlFor={id}>Rate limit (requests per minute)</label>
      <input
        id={id}
        ref={inputRef}
        className="input-short"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        placeholder="Default"
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={`${id}-hint`} className={invalid ? 'hint invalid' : 'hint'} aria-live="polite">
        {error
          ? error
          : check.ok
            ? 'Requests to the URL beyond this many per minute are refused with 429 and Retry-After. Empty: the gateway’s default.'
            : check.message}
      </div>
    </div>
  );
}
