import { alertCandidates } from './alert-candidates';
import { JsonObject } from '@alert-ingestion/json';

const receivedAt = new Date('2024-06-01T00:00:00.000Z');

describe('alertCandidates', () => {
  it('normalises and fingerprints every payload in request order', () => {
    const result = alertCandidates([{ title: 'a', fingerprint: 'x' }, { title: 'b' }], { tier: 'free', payloadFieldMapping: [] }, receivedAt);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.candidates.map((candidate) => candidate.title)).toEqual(['a', 'b']);
    expect(result.candidates[0].fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.candidates[1].fingerprintSha256).toBeNull();
    expect(result.candidates[1].startedAt).toEqual(receivedAt);
  });

  it('applies the payload field mapping on Premium, the end time included', () => {
    const mapping = [
      { field_name: 'title' as const, path: ['name'], type: 'string' as const },
      { field_name: 'end_time' as const, path: ['closed'], type: 'datetime' as const },
    ];
    const result = alertCandidates({ name: 'Mapped', closed: '2024-06-01T01:00:00Z', end_time: 'x' }, { tier: 'premium', payloadFieldMapping: mapping }, receivedAt);
    expect(result.ok && result.candidates[0]).toMatchObject({ title: 'Mapped', endedAt: new Date('2024-06-01T01:00:00Z') });
  });

  it('ignores a mapping on Free (spec 1.4: custom mapping is Premium)', () => {
    const mapping = [{ field_name: 'title' as const, path: ['name'], type: 'string' as const }];
    const result = alertCandidates({ name: 'Mapped', title: 'Default' }, { tier: 'free', payloadFieldMapping: mapping }, receivedAt);
    expect(result.ok && result.candidates[0].title).toBe('Default');
  });

  it('passes on a refusal', () => {
    expect(alertCandidates([1], { tier: 'free', payloadFieldMapping: [] }, receivedAt)).toEqual({
      ok: false,
      reason: 'element 0 of the array is not a JSON object',
    });
  });

  it('reads Alertmanager bodies', () => {
    const body: JsonObject = {
      version: '4',
      groupKey: '{}:{alertname="A"}',
      alerts: [
        { status: 'firing', labels: { alertname: 'A', severity: 'warning', instance: 'h:1' }, startsAt: '2024-05-31T00:00:00Z', fingerprint: 'fa' },
        { status: 'resolved', labels: { alertname: 'B' }, startsAt: '2024-05-31T00:00:00Z', endsAt: '2024-05-31T01:00:00Z', fingerprint: 'fb' },
      ],
    };
    const result = alertCandidates(body, { tier: 'free', payloadFieldMapping: [] }, receivedAt);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.candidates.map((candidate) => [candidate.title, candidate.severity, candidate.hosts, candidate.endedAt, candidate.fingerprint])).toEqual([
      ['A', 'medium', ['h:1'], null, 'fa'],
      ['B', 'critical', [], new Date('2024-05-31T01:00:00Z'), 'fb'],
    ]);
  });
});
