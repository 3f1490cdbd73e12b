import { PayloadFieldMappingEntry } from '@alert-ingestion/contracts';
import { createHash } from 'node:crypto';
import { alertSourceFromAlertmanagerElement } from './alertmanager';
import { fingerprintSha256 } from './fingerprint';
import { JsonObject } from '@alert-ingestion/json';
import { alertSourceFromPayload } from './payload-field-mapping';

const premium = (payload: JsonObject, mapping: PayloadFieldMappingEntry[] = []) =>
  fingerprintSha256(alertSourceFromPayload(payload, mapping), 'premium');
const free = (payload: JsonObject) => fingerprintSha256(alertSourceFromPayload(payload), 'free');

describe('fingerprintSha256', () => {
  it('is SHA-256 hex', () => {
    expect(premium({ title: 'x' })).toMatch(/^[0-9a-f]{64}$/);
    expect(free({ fingerprint: 'abc' })).toBe(createHash('sha256').update('fingerprint:"abc"').digest('hex'));
  });

  describe('explicit fingerprint (every tier)', () => {
    it('groups payloads with the same fingerprint whatever else differs', () => {
      expect(premium({ fingerprint: 'f', title: 'a' })).toBe(premium({ fingerprint: 'f', title: 'b' }));
      expect(free({ fingerprint: 'f', title: 'a' })).toBe(free({ fingerprint: 'f', title: 'b' }));
      expect(free({ fingerprint: 'f' })).toBe(premium({ fingerprint: 'f' }));
    });

    it('distinguishes different fingerprints and forms', () => {
      expect(free({ fingerprint: 'f' })).not.toBe(free({ fingerprint: 'g' }));
      expect(free({ fingerprint: ['a', 'b'] })).not.toBe(free({ fingerprint: 'a,b' }));
      expect(free({ fingerprint: ['a,b'] })).not.toBe(free({ fingerprint: ['a', 'b'] }));
      expect(free({ fingerprint: ['a', 'b'] })).not.toBe(free({ fingerprint: ['b', 'a'] }));
    });

    it('is computed from the exact value: NUL, U+FFFD, an unpaired surrogate and their escape text all differ', () => {
      const fingerprints = ['a\u0000b', 'a\uFFFDb', 'a\\u0000b', 'a\uD800b', 'a\\ud800b'].map((fingerprint) => free({ fingerprint }));
      expect(new Set(fingerprints).size).toBe(5);
      expect(premium({ title: 'x', custom: 'a\u0000b' })).not.toBe(premium({ title: 'x', custom: 'a\uFFFDb' }));
    });

    it('reads an array fingerprint and object fingerprints regardless of key order', () => {
      expect(free({ fingerprint: ['a', 'b'] })).toBe(free({ fingerprint: ['a', 'b'], other: 1 }));
      expect(free({ fingerprint: { x: 1, y: 2 } })).toBe(free({ fingerprint: { y: 2, x: 1 } }));
    });

    it('never equals a computed fingerprint', () => {
      expect(premium({ fingerprint: { title: 'x' } })).not.toBe(premium({ title: 'x' }));
    });

    it('uses the mapped fingerprint field', () => {
      const mapping: PayloadFieldMappingEntry[] = [{ field_name: 'fingerprint', path: ['labels', 'id'], type: 'string' }];
      expect(premium({ labels: { id: 'k' }, fingerprint: 'ignored-1' }, mapping)).toBe(
        premium({ labels: { id: 'k' }, fingerprint: 'ignored-2' }, mapping),
      );
      expect(premium({ labels: { id: 'k' } }, mapping)).toBe(free({ fingerprint: 'k' }));
    });
  });

  describe('computed fingerprint (Premium only)', () => {
    const base = { title: 'CPU', severity: 'high', labels: { a: 1, b: [1, 2] } };

    it('ignores start_time, end_time and hosts', () => {
      const one = premium({ ...base, start_time: '2024-01-01T00:00:00Z', hosts: ['a'] });
      expect(premium({ ...base, start_time: '2024-02-02T00:00:00Z', hosts: 'b' })).toBe(one);
      expect(premium({ ...base, end_time: '2024-02-02T00:00:00Z' })).toBe(one);
      expect(premium(base)).toBe(one);
    });

    it('ignores key order', () => {
      expect(premium({ labels: { b: [1, 2], a: 1 }, severity: 'high', title: 'CPU' })).toBe(premium(base));
    });

    it('compares everything else, nested custom fields included', () => {
      expect(premium({ ...base, title: 'Memory' })).not.toBe(premium(base));
      expect(premium({ ...base, labels: { a: 1, b: [2, 1] } })).not.toBe(premium(base));
      expect(premium({ ...base, extra: null })).not.toBe(premium(base));
      expect(premium({ ...base, fingerprint: '' })).not.toBe(premium(base));
    });

    it('ignores the mapped start, end and hosts keys and compares the default-named ones', () => {
      const mapping: PayloadFieldMappingEntry[] = [
        { field_name: 'start_time', path: ['times', 'from'], type: 'datetime' },
        { field_name: 'end_time', path: ['times', 'to'], type: 'datetime' },
        { field_name: 'hosts', path: ['machine'], type: 'string' },
      ];
      const one = premium({ title: 'x', times: { from: 1 }, machine: 'a' }, mapping);
      expect(premium({ title: 'x', times: { from: 2, to: 3 }, machine: 'b' }, mapping)).toBe(one);
      expect(premium({ title: 'x', times: {}, start_time: 'custom now' }, mapping)).not.toBe(one);
    });

    it('is null on Free without an explicit fingerprint', () => {
      expect(free(base)).toBeNull();
      expect(free({ ...base, fingerprint: '' })).toBeNull();
      expect(free({ ...base, fingerprint: [] })).toBeNull();
    });
  });

  it('identifies Alertmanager alerts by their own fingerprint on every tier', () => {
    const element = { status: 'firing', labels: { alertname: 'A' }, fingerprint: 'f1', startsAt: '2024-01-01T00:00:00Z' };
    const resolved = { ...element, status: 'resolved', endsAt: '2024-01-01T01:00:00Z' };
    const firingSha = fingerprintSha256(alertSourceFromAlertmanagerElement(element), 'free');
    expect(firingSha).not.toBeNull();
    expect(fingerprintSha256(alertSourceFromAlertmanagerElement(resolved), 'free')).toBe(firingSha);
    expect(fingerprintSha256(alertSourceFromAlertmanagerElement(resolved), 'premium')).toBe(firingSha);
  });
});
