import { AlertView } from '../alert';
import { AlertEventValue, encodeAlertEvent } from './value';

function event(payload: unknown): AlertEventValue {
  const alert: AlertView = {
    iid: 1,
    title: 'Disk full',
    description: null,
    severity: 'critical',
    status: 'triggered',
    events: 1,
    started_at: '2026-11-22T00:00:00.000Z',
    ended_at: null,
    service: null,
    monitoring_tool: null,
    hosts: [],
    platform_environment_name: null,
    fingerprint: null,
    integration_id: 3,
    payload,
    silenced_by: null,
    assignees: [],
    incident_iid: null,
    created_at: '2026-11-22T00:00:00.000Z',
    updated_at: '2026-11-22T00:00:00.000Z',
  };
  return { type: 'alert.created', occurred_at: '2026-11-22T00:00:00.000Z', project_id: 2, alert };
}

describe('encodeAlertEvent', () => {
  it('publishes the event as it is when it fits', () => {
    const value = event({ title: 'Disk full', big: 'x'.repeat(1000) });
    expect(encodeAlertEvent(value, 2000)).toEqual({ text: JSON.stringify(value), payloadTruncated: false });
  });

  it('leaves the payload out, and says so, when the event would not fit', () => {
    const value = event({ big: 'x'.repeat(3000) });
    const encoded = encodeAlertEvent(value, 2000);
    expect(encoded.payloadTruncated).toBe(true);
    const published = JSON.parse(encoded.text);
    expect(published.alert).not.toHaveProperty('payload');
    expect(published.alert).toMatchObject({ iid: 1, title: 'Disk full', payload_truncated: true });
    expect(published).toMatchObject({ type: 'alert.created', project_id: 2 });
    expect(Buffer.byteLength(encoded.text)).toBeLessThan(2000);
  });

  it('measures UTF-8 bytes, not characters', () => {
    const value = event({ text: 'é'.repeat(900) }); // 900 characters, 1800 bytes
    expect(encodeAlertEvent(value, 1500).payloadTruncated).toBe(true);
    expect(encodeAlertEvent(value, 3000).payloadTruncated).toBe(false);
  });
});
