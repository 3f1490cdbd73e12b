import { alertSourceFromPayload } from './payload-field-mapping';
import { JsonObject } from '@alert-ingestion/json';
import { DEFAULT_TITLE, normaliseAlert } from './normalise-alert';

const now = new Date('2024-06-01T00:00:00.000Z');
const normalise = (payload: JsonObject) => normaliseAlert(alertSourceFromPayload(payload), now);

describe('normaliseAlert (spec 2.2)', () => {
  it('applies every default to an empty payload', () => {
    expect(normalise({})).toEqual({
      title: DEFAULT_TITLE,
      description: null,
      severity: 'critical',
      startedAt: now,
      endedAt: null,
      service: null,
      monitoringTool: null,
      hosts: [],
      platformEnvironmentName: null,
      fingerprint: null,
      payload: {},
    });
    expect(DEFAULT_TITLE).toBe('New: Alert');
  });

  it('uses every field that is present', () => {
    const payload = {
      title: 'Disk full',
      description: 'sda1 at 99%',
      start_time: '2024-05-31T10:00:00Z',
      end_time: '2024-05-31T11:00:00Z',
      service: 'storage',
      monitoring_tool: 'Zabbix',
      hosts: ['db-1', 'db-2'],
      severity: 'LOW',
      fingerprint: 'disk-sda1',
      platform_environment_name: 'production',
      custom: { nested: [1, { deep: true }] },
    };
    expect(normalise(payload)).toEqual({
      title: 'Disk full',
      description: 'sda1 at 99%',
      severity: 'low',
      startedAt: new Date('2024-05-31T10:00:00Z'),
      endedAt: new Date('2024-05-31T11:00:00Z'),
      service: 'storage',
      monitoringTool: 'Zabbix',
      hosts: ['db-1', 'db-2'],
      platformEnvironmentName: 'production',
      fingerprint: 'disk-sda1',
      payload,
    });
  });

  it.each([[''], ['   '], [null], [{ text: 'x' }], [['x']]])('gives the default title for %j', (title) => {
    expect(normalise({ title }).title).toBe('New: Alert');
  });

  it('keeps numbers and booleans as text', () => {
    expect(normalise({ title: 42, service: true }).title).toBe('42');
    expect(normalise({ title: 42, service: true }).service).toBe('true');
  });

  it('uses now for an absent or invalid start time and ignores an invalid end time', () => {
    expect(normalise({ start_time: 'yesterday' }).startedAt).toEqual(now);
    expect(normalise({ end_time: 'soon' }).endedAt).toBeNull();
    expect(normalise({ end_time: null }).endedAt).toBeNull();
    expect(normalise({ end_time: '' }).endedAt).toBeNull();
  });

  it.each([
    ['a string', 'web-1', ['web-1']],
    ['an array', ['web-1', 'web-2'], ['web-1', 'web-2']],
    ['an array with numbers and junk', ['web-1', 7, null, '', { h: 1 }, ['x']], ['web-1', '7']],
    ['a number', 10, ['10']],
    ['an object', { h: 'x' }, []],
    ['blank text', ' ', []],
  ])('reads hosts given as %s', (_, hosts, expected) => {
    expect(normalise({ hosts }).hosts).toEqual(expected);
  });

  it('keeps at most 100 hosts of at most 255 code points', () => {
    const hosts = Array.from({ length: 150 }, (_, index) => `h${index}`);
    expect(normalise({ hosts }).hosts).toHaveLength(100);
    expect(normalise({ hosts: 'x'.repeat(300) }).hosts[0]).toHaveLength(255);
  });

  it.each([
    ['a string', 'abc', 'abc'],
    ['a number', 12, '12'],
    ['an array', ['a', 'b'], '["a","b"]'],
    ['an object (key order canonical)', { b: 1, a: 2 }, '{"a":2,"b":1}'],
    ['an empty array', [], null],
    ['an empty object', {}, null],
    ['blank text', '  ', null],
    ['null', null, null],
  ])('shows a fingerprint given as %s', (_, fingerprint, expected) => {
    expect(normalise({ fingerprint }).fingerprint).toBe(expected);
  });

  it('cuts long text fields at their limits without splitting characters', () => {
    const alert = normalise({
      title: '😀'.repeat(250),
      description: 'd'.repeat(1200),
      service: 's'.repeat(150),
      monitoring_tool: 'm'.repeat(150),
      platform_environment_name: 'e'.repeat(300),
      fingerprint: 'f'.repeat(300),
    });
    expect(Array.from(alert.title)).toHaveLength(200);
    expect(alert.title).toBe('😀'.repeat(200));
    expect(alert.description).toHaveLength(1000);
    expect(alert.service).toHaveLength(100);
    expect(alert.monitoringTool).toHaveLength(100);
    expect(alert.platformEnvironmentName).toHaveLength(255);
    expect(alert.fingerprint).toHaveLength(255);
  });

  it('keeps custom fields of every JSON type exactly, NUL and unpaired surrogates included', () => {
    const payload = { s: 'x\u0000', 'k\uD800': '\uDC00', n: 1.5, b: false, z: null, a: [1, 'two'], o: { p: { q: [] } } };
    expect(normalise(payload).payload).toEqual(payload);
  });

  it('shows NUL and unpaired surrogates of the text fields as their JSON escapes', () => {
    const alert = normalise({ title: 'disk\u0000full', description: '\uD800', hosts: ['h\u0000', 'ok'], fingerprint: 'a\u0000b' });
    expect(alert).toMatchObject({ title: 'disk\\u0000full', description: '\\ud800', hosts: ['h\\u0000', 'ok'], fingerprint: 'a\\u0000b' });
    expect(normalise({ fingerprint: 'a\uFFFDb' }).fingerprint).toBe('a\uFFFDb');
  });

  it('does not share the start time object with the caller', () => {
    expect(normalise({}).startedAt).not.toBe(now);
  });
});
