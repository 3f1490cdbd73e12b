import { HEARTBEAT_INTERVAL_MINUTES, Integration } from '@console/api/types';
import { NumberSettingCheck, NumberSettingField, NumberSettingProps } from '@console/components/number-setting-field';
import { TimeAgo } from '@console/components/time-ago';

/**
 * The heartbeat interval as typed: empty is off (null), else a whole number of minutes from 1 to
 * 1440 (a day); the API checks it again.
 */
export function checkHeartbeatInterval(text: string): NumberSettingCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: 'Enter a whole number of minutes (1 to 1440), or leave it empty for no heartbeat.' };
  const value = Number(trimmed);
  if (value < HEARTBEAT_INTERVAL_MINUTES.min || value > HEARTBEAT_INTERVAL_MINUTES.max) {
    return { ok: false, message: 'The heartbeat interval is 1 to 1440 minutes (a day); leave it empty for no heartbeat.' };
  }
  return { ok: true, value };
}

/**
 * "Heartbeat (minutes)" of an HTTP Endpoint: how often a request is expected (a dead man's switch,
 * such as Alertmanager's always-firing Watchdog). Empty: off. Checked while typing; `error` is a
 * refusal of the API, shown in place of the hint until the value changes.
 */
export function HeartbeatField(props: NumberSettingProps) {
  return (
    <NumberSettingField
      {...props}
      label="Heartbeat (minutes)"
      placeholder="Off"
      check={checkHeartbeatInterval}
      hint={(minutes) =>
        minutes === null
          ? 'Off. Set a number of minutes to raise a critical alert when no request arrives for that long (and resolve it when requests resume).'
          : `An alert “No alerts received from … for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}” is raised when no request arrives for that long, and resolved when requests resume.`
      }
    />
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
