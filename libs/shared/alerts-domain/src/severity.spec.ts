import { alertmanagerSeverity, normaliseSeverity } from './severity';

describe('normaliseSeverity (spec 2.2)', () => {
  it.each([
    ['critical', 'critical'],
    ['HIGH', 'high'],
    ['Medium', 'medium'],
    ['low', 'low'],
    ['info', 'info'],
    ['unknown', 'unknown'],
    [' low ', 'low'],
  ])('accepts %s case-insensitively', (value, expected) => {
    expect(normaliseSeverity(value)).toBe(expected);
  });

  it.each([[undefined], [null], [''], ['warning'], ['severe'], [3], [['low']], [{ level: 'low' }]])(
    'defaults %j to critical',
    (value) => {
      expect(normaliseSeverity(value)).toBe('critical');
    },
  );
});

describe('alertmanagerSeverity', () => {
  it.each([
    ['warning', 'medium'],
    ['Warning', 'medium'],
    ['warn', 'medium'],
    ['error', 'high'],
    ['critical', 'critical'],
    ['page', 'critical'],
    ['info', 'info'],
    ['none', 'info'],
    ['low', 'low'],
    ['notice', 'low'],
    ['P1', 'critical'],
    ['sev3', 'medium'],
    ['unknown', 'unknown'],
  ])('maps %s to %s', (value, expected) => {
    expect(alertmanagerSeverity(value)).toBe(expected);
  });

  it.each([[undefined], ['bogus'], ['constructor'], ['__proto__'], [7]])('defaults %j to critical', (value) => {
    expect(alertmanagerSeverity(value)).toBe('critical');
  });
});
