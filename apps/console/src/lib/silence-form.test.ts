import { describe, expect, it } from 'vitest';
import { describeMatcher, emptyRow, fromUtcInput, matchersFromRows, parsePathText, pathText, rowsFromMatchers, similarMatchers, toUtcInput } from './silence-form';

describe('silence form', () => {
  it('offers the fingerprint of an alert that has one for "Silence similar"', () => {
    expect(similarMatchers({ fingerprint: 'disk-db-1', title: 'Disk full', service: 'db' })).toEqual([{ field: 'fingerprint', operator: '=', value: 'disk-db-1' }]);
  });

  it('offers title and service otherwise, the title alone without a service', () => {
    expect(similarMatchers({ fingerprint: null, title: 'Disk full', service: 'db' })).toEqual([
      { field: 'title', operator: '=', value: 'Disk full' },
      { field: 'service', operator: '=', value: 'db' },
    ]);
    expect(similarMatchers({ fingerprint: null, title: 'Disk full', service: null })).toEqual([{ field: 'title', operator: '=', value: 'Disk full' }]);
  });

  it('reads payload paths dotted or as JSON, and writes them back the same way', () => {
    expect(parsePathText('labels.team')).toEqual(['labels', 'team']);
    expect(parsePathText('["labels", "a.b", 0]')).toEqual(['labels', 'a.b', 0]);
    expect(parsePathText('labels..team')).toBeNull();
    expect(parsePathText('[]')).toBeNull();
    expect(parsePathText('')).toBeNull();
    expect(pathText(['labels', 'team'])).toBe('labels.team');
    expect(pathText(['labels', 'a.b', 0])).toBe('["labels","a.b",0]');
  });

  it('turns rows into the API matchers and back', () => {
    const rows = [
      { ...emptyRow(), field: 'service' as const, value: 'checkout' },
      { ...emptyRow(), target: 'path' as const, path: 'labels.team', operator: '=~' as const, value: 'stor.*' },
    ];
    const checked = matchersFromRows(rows);
    expect(checked).toEqual({
      ok: true,
      matchers: [
        { field: 'service', operator: '=', value: 'checkout' },
        { path: ['labels', 'team'], operator: '=~', value: 'stor.*' },
      ],
    });
    expect(rowsFromMatchers(checked.ok ? checked.matchers : [])).toEqual(rows);
  });

  it('refuses no rows and a path row without a path', () => {
    expect(matchersFromRows([])).toEqual({ ok: false, message: 'Add at least one matcher.', row: 0, at: 'value' });
    expect(matchersFromRows([{ ...emptyRow(), value: 'x' }, { ...emptyRow(), target: 'path', path: ' ' }])).toMatchObject({ ok: false, row: 1, at: 'path' });
  });

  it('refuses matchers that all match an empty value, as Alertmanager does, and takes service="" beside another', () => {
    expect(matchersFromRows([emptyRow()])).toMatchObject({ ok: false, row: 0, at: 'value', message: expect.stringMatching(/would silence every alert/) });
    expect(matchersFromRows([{ ...emptyRow(), operator: '=~', value: '.*' }])).toMatchObject({ ok: false });
    expect(matchersFromRows([{ ...emptyRow(), field: 'service' }, { ...emptyRow(), value: 'Disk full' }]).ok).toBe(true);
  });

  it('describes matchers as Alertmanager writes them', () => {
    expect(describeMatcher({ field: 'service', operator: '=', value: 'checkout' })).toBe('service="checkout"');
    expect(describeMatcher({ path: ['labels', 'team'], operator: '!~', value: 'web|api' })).toBe('labels.team!~"web|api"');
  });

  it('reads and writes datetime-local values in UTC', () => {
    const iso = '2026-11-25T10:30:00.000Z';
    expect(fromUtcInput(toUtcInput(iso))).toBe(iso);
    expect(fromUtcInput('')).toBeNull();
    expect(fromUtcInput('nonsense')).toBeNull();
    expect(fromUtcInput('2026-11-26T18:00')).toBe('2026-11-26T18:00:00.000Z');
  });
});
