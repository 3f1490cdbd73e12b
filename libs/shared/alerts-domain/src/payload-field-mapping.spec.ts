import { PayloadFieldMappingEntry } from '@alert-ingestion/contracts';
import { alertSourceFromPayload } from './payload-field-mapping';

describe('alertSourceFromPayload', () => {
  it('reads the spec 2.2 names without a mapping and keeps the payload', () => {
    const payload = { title: 'Disk full', end_time: '2024-01-01T00:00:00Z', hosts: ['a'], custom: { x: [1] } };
    const source = alertSourceFromPayload(payload);
    expect(source.fields).toEqual({ title: 'Disk full', end_time: '2024-01-01T00:00:00Z', hosts: ['a'] });
    expect(source.payload).toBe(payload);
    expect(source.fingerprintExclusions).toEqual([['start_time'], ['end_time'], ['hosts']]);
  });

  it('keeps a null value as present (normalisation decides its default)', () => {
    expect(alertSourceFromPayload({ title: null }).fields).toEqual({ title: null });
  });

  it('reads mapped keys from their paths instead of the default names, end time included', () => {
    const mapping: PayloadFieldMappingEntry[] = [
      { field_name: 'title', path: ['alert', 'name'], type: 'string' },
      { field_name: 'end_time', path: ['alert', 'resolved_at'], type: 'datetime' },
      { field_name: 'start_time', path: ['alert', 'fired_at'], type: 'datetime' },
      { field_name: 'hosts', path: ['targets', 0], type: 'string' },
    ];
    const payload = {
      title: 'default-named title is a custom field now',
      end_time: '2024-01-01T00:00:00Z',
      alert: { name: 'CPU', resolved_at: '2024-02-02T00:00:00Z', fired_at: 1700000000 },
      targets: ['h1', 'h2'],
      severity: 'low',
    };
    const source = alertSourceFromPayload(payload, mapping);
    expect(source.fields).toEqual({
      title: 'CPU',
      end_time: '2024-02-02T00:00:00Z',
      start_time: 1700000000,
      hosts: 'h1',
      severity: 'low',
    });
    expect(source.fingerprintExclusions).toEqual([['alert', 'fired_at'], ['alert', 'resolved_at'], ['targets', 0]]);
  });

  it('treats a mapped key whose path is absent as absent, not as the default name', () => {
    const mapping: PayloadFieldMappingEntry[] = [{ field_name: 'end_time', path: ['resolvedAt'], type: 'datetime' }];
    const source = alertSourceFromPayload({ end_time: '2024-01-01T00:00:00Z' }, mapping);
    expect(source.fields.end_time).toBeUndefined();
  });

  it('uses the first entry when a key is mapped twice', () => {
    const mapping: PayloadFieldMappingEntry[] = [
      { field_name: 'title', path: ['a'], type: 'string' },
      { field_name: 'title', path: ['b'], type: 'string' },
    ];
    expect(alertSourceFromPayload({ a: 'A', b: 'B' }, mapping).fields.title).toBe('A');
  });
});
