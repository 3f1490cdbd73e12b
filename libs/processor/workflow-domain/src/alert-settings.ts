import { CommandPlan, unchanged } from '@alert-ingestion/alerts-domain';
import { AlertSettingsView } from '@alert-ingestion/contracts';

/** A project's alert settings as stored (docs/api-guide.md "Alert settings"): GitLab's three switches and when they last changed. */
export interface StoredAlertSettings {
  create_incident: boolean;
  send_email: boolean;
  auto_close_incident: boolean;
  /** When a switch last changed; null: never (no row: every switch off). */
  updated_at: Date | null;
}

export type AlertSettingsSwitches = Omit<AlertSettingsView, 'email_configured'>;

/** A project with no settings stored: every switch off, never changed. */
export const DEFAULT_ALERT_SETTINGS: StoredAlertSettings = { create_incident: false, send_email: false, auto_close_incident: false, updated_at: null };

/**
 * `PUT .../alert_settings`: the switches given take their new value, the others keep theirs. A
 * switch applies to the events that occur after it changed (incidentAutomation), so `updated_at`
 * moves only when a switch really changes: asking for what is changes nothing.
 */
export function planAlertSettingsUpdate(stored: StoredAlertSettings | undefined, request: Partial<AlertSettingsSwitches>, now: Date): CommandPlan<StoredAlertSettings> {
  const current = stored ?? DEFAULT_ALERT_SETTINGS;
  const next: StoredAlertSettings = {
    create_incident: request.create_incident ?? current.create_incident,
    send_email: request.send_email ?? current.send_email,
    auto_close_incident: request.auto_close_incident ?? current.auto_close_incident,
    updated_at: now,
  };
  const changed = next.create_incident !== current.create_incident || next.send_email !== current.send_email || next.auto_close_incident !== current.auto_close_incident;
  return changed ? { changes: next, events: [] } : unchanged();
}
