import { parseAlertTime } from './alert-time';

const iso = (value: Parameters<typeof parseAlertTime>[0]) => parseAlertTime(value)?.toISOString() ?? null;

describe('parseAlertTime', () => {
  it.each([
    ['2024-03-01T10:20:30Z', '2024-03-01T10:20:30.000Z'],
    ['2024-03-01T10:20:30.123456Z', '2024-03-01T10:20:30.123Z'],
    ['2024-03-01T10:20:30.5+02:00', '2024-03-01T08:20:30.500Z'],
    ['2024-03-01T10:20:30-0130', '2024-03-01T11:50:30.000Z'],
    ['2024-03-01T10:20:30+05', '2024-03-01T05:20:30.000Z'],
    ['2024-03-01T10:20', '2024-03-01T10:20:00.000Z'],
    ['2024-03-01 10:20:30', '2024-03-01T10:20:30.000Z'],
    ['2024-03-01', '2024-03-01T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    [' 2024-03-01T10:20:30Z ', '2024-03-01T10:20:30.000Z'],
  ])('reads ISO 8601 text %s (no zone means UTC)', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it.each([
    ['not a date'],
    ['2023-02-29T00:00:00Z'],
    ['2024-13-01T00:00:00Z'],
    ['2024-04-31'],
    ['2024-03-01T24:00:00Z'],
    ['2024-03-01T10:60:00Z'],
    ['2024-03-01T10:00:61Z'],
    ['2024-03-01T10:00:00+24:00'],
    ['0001-01-01T00:00:00Z'],
    ['1969-12-31T23:59:59Z'],
    ['0099-01-01T00:00:00Z'],
    ['March 1, 2024'],
    [''],
  ])('treats %j as invalid', (text) => {
    expect(parseAlertTime(text)).toBeNull();
  });

  it('reads epoch seconds and epoch milliseconds', () => {
    expect(iso(1709288430)).toBe('2024-03-01T10:20:30.000Z');
    expect(iso(1709288430.25)).toBe('2024-03-01T10:20:30.250Z');
    expect(iso(1709288430123)).toBe('2024-03-01T10:20:30.123Z');
  });

  it.each([[null], [true], [{}], [[]], [-5], [1e20], [undefined]])('treats %j as invalid', (value) => {
    expect(parseAlertTime(value)).toBeNull();
  });

  it('accepts the last millisecond of year 9999 and nothing later', () => {
    expect(iso('9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z');
    expect(parseAlertTime('9999-12-31T23:59:59.999-01:00')).toBeNull();
  });
});
