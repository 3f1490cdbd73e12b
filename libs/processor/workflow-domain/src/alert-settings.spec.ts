import { DEFAULT_ALERT_SETTINGS, planAlertSettingsUpdate } from './alert-settings';

describe('planAlertSettingsUpdate', () => {
  const now = new Date('2026-11-28T10:00:00.000Z');
  const earlier = new Date('2026-11-28T09:00:00.000Z');
  const stored = { create_incident: true, send_email: false, auto_close_incident: false, updated_at: earlier };

  it('sets the switches given, keeps the others, and notes when a switch changed', () => {
    expect(planAlertSettingsUpdate(stored, { send_email: true }, now)).toEqual({
      changes: { create_incident: true, send_email: true, auto_close_incident: false, updated_at: now },
      events: [],
    });
    expect(planAlertSettingsUpdate(undefined, { auto_close_incident: true }, now)).toEqual({ events: [], changes: { ...DEFAULT_ALERT_SETTINGS, auto_close_incident: true, updated_at: now } });
  });

  it('changes nothing (not even when a switch last changed) when asked for what is', () => {
    expect(planAlertSettingsUpdate(stored, { create_incident: true, send_email: false }, now)).toEqual({ changes: null, events: [] });
    expect(planAlertSettingsUpdate(undefined, { create_incident: false }, now)).toEqual({ changes: null, events: [] });
  });
});
