import { Ref, useId } from 'react';
import { Integration } from '../../api/types';
import { TimeAgo } from '../../components/time-ago';

export type HeartbeatCheck = { ok: true; value: number | null } | { ok: false; message: string };

/** The heartbeat interval's bounds (CONTRACT.md-style integration field `heartbeat_interval_minutes`). */
export const HEARTBEAT_MINUTES = { min: 1, max: 1440 } as const;

/**
 * The heartbeat interval as typed: empty is off (null), else a whole number of minutes from 1 to
 * 1440 (a day); the API checks it again.
 */
export function checkHeartbeatInterval(text: string): HeartbeatCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: 'Enter a whole number of minutes (1 to 1440), or leave it empty for no heartbeat.' };
  const value = Number(trimmed);
  if (value < HEARTBEAT_MINUTES.min || value > HEARTBEAT_MINUTES.max) {
    return { ok: false, message: 'The heartbeat interval is 1 to 1440 minutes (a day); leave it empty for no heartbeat.' };
  }
  return { ok: true, value };
}

/**
 * "Heartbeat (minutes)" of an HTTP Endpoint: how often a request is expected (a dead man's switch,
 * such as Alertmanager's always-firing Watchdog). Empty: off. Checked while typing; `error` is a
 * refusal of the API, shown in place of the hint until the value changes.
 */
export function HeartbeatField({
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
  const check = checkHeartbeatInterval(value);
  const invalid = Boolean(error) || !check.ok;
  return (
    <div className="field">
      <label htmlFor={id}>Heartbeat (minutes)</label>
      <input
        id={id}
        ref={inputRef}
        className="input-short"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        placeholder="Off"
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={`${id}-hint`} className={invalid ? 'hint invalid' : 'hint'} aria-live="polite">
        {error
          ? error
          : check.ok
            ? check.value === null
              ? 'Off. Set a number of minutes to raise a critical alert when no request arrives for that long (and resolve it when requests resume).'
              : `An alert “No alerts received from … for ${check.value} ${check.value === 1 ? 'minute' : 'minutes'}” is raised when no request arrives for that long, and resolved when requests resume.`
            : check.message}
      </div>
    </div>
  );
}

const STATUS_LABELS: Record<Integration['heartbeat_status'], string> = {
  ok: 'Heartbeat OK',
  expired: 'Heartbeat expired',
  waiting: 'Waiting for the first request',
  off: 'Heartbeat off',
};

/** The heartbeat's status as a badge, with the last request the gateway accepted. */
export function HeartbeatStatus({ integration, now }: { integration: Pick<Integration, 'heartbeat_status' | 'heartbeat_interval_minutes' | 'last_request_at'>; now?: number }) {
  const { heartbeat_status: status, heartbeat_interval_minutes: minutes, last_request_at: lastRequestAt } = integration;
  return (
    <div className="heartbeat-status" role="status">
      <span className={`badge badge-heartbeat-${status}`}>{STATUS_LABELS[status]}</span>
      {minutes !== null && status !== 'off' && (
        <span className="hint">
          {' · '}
          expected every {minutes} {minutes === 1 ? 'minute' : 'minutes'}
        </span>
      )}
      <span className="hint">
        {' · '}
        Last request:{' '}
        {lastRequestAt ? <TimeAgo iso={lastRequestAt} now={now} /> : 'none yet'}
      </span>
    </div>
  );
}
