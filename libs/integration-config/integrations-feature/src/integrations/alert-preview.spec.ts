import { DomainError } from '@alert-ingestion/http';
import { previewAlerts } from './alert-preview';

const now = new Date('2026-11-22T12:00:00.000Z');
const premium = { tier: 'premium' as const, payloadFieldMapping: [], samplePayload: null };

function refusal(run: () => unknown): { status: number; code: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('previewAlerts', () => {
  it('applies the defaults of spec 2.2 to a plain payload', () => {
    const [alert] = previewAlerts({ severity: 'HIGH', hosts: 'db-1', custom: { nested: [1] } }, premium, undefined, now);
    expect(alert).toEqual({
      title: 'New: Alert',
      description: null,
      severity: 'high',
      started_at: '2026-11-22T12:00:00.000Z',
      ended_at: null,
      service: null,
      monitoring_tool: null,
      hosts: ['db-1'],
      fingerprint: null,
      grouping_key: expect.stringMatching(/^[0-9a-f]{64}$/),
      platform_environment_name: null,
      payload: { severity: 'HIGH', hosts: 'db-1', custom: { nested: [1] } },
    });
  });

  it('maps with a proposed mapping, or else with the saved one', () => {
    const payload = { summary: 'Disk full', labels: { env: 'prod' }, resolved_at: null };
    const proposed = [
      { field_name: 'title', path: ['summary'], type: 'string' },
      { field_name: 'platform_environment_name', path: ['labels', 'env'], type: 'string' },
    ];
    expect(previewAlerts(payload, premium, proposed, now)[0]).toMatchObject({ title: 'Disk full', platform_environment_name: 'prod' });
    const saved = { ...premium, payloadFieldMapping: [{ field_name: 'title' as const, path: ['labels', 'env'], type: 'string' as const }] };
    expect(previewAlerts(payload, saved, undefined, now)[0].title).toBe('prod');
  });

  it('gives one alert per element of an array or an Alertmanager body', () => {
    expect(previewAlerts([{ title: 'a' }, { title: 'b' }], premium, undefined, now).map((alert) => alert.title)).toEqual(['a', 'b']);
  });

  it('refuses a mapping whose path is not in the payload (400), a mapping on Free (403) and a body that is no alert (400)', () => {
    expect(refusal(() => previewAlerts({ a: 1 }, premium, [{ field_name: 'title', path: ['missing'], type: 'string' }], now))).toMatchObject({ status: 400 });
    expect(refusal(() => previewAlerts({ a: 1 }, { ...premium, tier: 'free' }, [{ field_name: 'title', path: ['a'], type: 'string' }], now))).toEqual({
      status: 403,
      code: 'premium_required',
    });
    expect(refusal(() => previewAlerts([1, 2], premium, undefined, now))).toEqual({ status: 400, code: 'invalid_payload' });
  });

  it('shows a recovery payload with its end time, and one grouping key for payloads that differ only in start time and hosts', () => {
    const [recovery] = previewAlerts({ title: 'x', end_time: '2026-11-22T11:00:00Z' }, premium, undefined, now);
    expect(recovery.ended_at).toBe('2026-11-22T11:00:00.000Z');
    const [first] = previewAlerts({ title: 'x', hosts: 'a', start_time: '2026-11-22T10:00:00Z' }, premium, undefined, now);
    const [second] = previewAlerts({ title: 'x', hosts: 'b', start_time: '2026-11-22T10:05:00Z' }, premium, undefined, now);
    expect(first.grouping_key).toBe(second.grouping_key);
  });
});
