import { splitAlertPayloads } from './alert-payloads';

describe('splitAlertPayloads', () => {
  it('takes an object as one alert payload', () => {
    const result = splitAlertPayloads({ title: 'a' }, []);
    expect(result.ok && result.sources.map((source) => source.payload)).toEqual([{ title: 'a' }]);
  });

  it('takes every element of an array, in order', () => {
    const result = splitAlertPayloads([{ title: 'a' }, { title: 'b' }], []);
    expect(result.ok && result.sources.map((source) => source.fields.title)).toEqual(['a', 'b']);
  });

  it('gives nothing for an empty array or an Alertmanager body without alerts', () => {
    expect(splitAlertPayloads([], [])).toEqual({ ok: true, sources: [] });
    expect(splitAlertPayloads({ version: '4', groupKey: 'g', alerts: [] }, [])).toEqual({ ok: true, sources: [] });
  });

  it('takes every Alertmanager alert, keeping the element as payload', () => {
    const element = { status: 'firing', labels: { alertname: 'A' }, fingerprint: 'f1' };
    const result = splitAlertPayloads({ version: '4', groupKey: 'g', status: 'firing', alerts: [element, element] }, []);
    expect(result.ok && result.sources.map((source) => source.payload)).toEqual([element, element]);
    expect(result.ok && result.sources[0].fields.title).toBe('A');
  });

  it('applies the payload field mapping to plain payloads only', () => {
    const mapping = [{ field_name: 'title' as const, path: ['name'], type: 'string' as const }];
    const plain = splitAlertPayloads([{ name: 'mapped' }], mapping);
    expect(plain.ok && plain.sources[0].fields.title).toBe('mapped');
    const alertmanager = splitAlertPayloads({ version: '4', groupKey: 'g', alerts: [{ name: 'x', labels: { alertname: 'A' } }] }, mapping);
    expect(alertmanager.ok && alertmanager.sources[0].fields.title).toBe('A');
  });

  it.each([
    ['a string', 'text', 'the payload is not a JSON object or array'],
    ['a number', 5, 'the payload is not a JSON object or array'],
    ['null', null, 'the payload is not a JSON object or array'],
    ['an array with a non-object', [{}, 3], 'element 1 of the array is not a JSON object'],
    ['an array with a nested array', [[{}]], 'element 0 of the array is not a JSON object'],
    ['an Alertmanager body with a non-object alert', { version: '4', groupKey: 'g', alerts: ['x'] }, 'alerts[0] is not a JSON object'],
  ])('refuses %s', (_, body, reason) => {
    expect(splitAlertPayloads(body, [])).toEqual({ ok: false, reason });
  });
});
