import { alertBodyShapeViolation } from './alert-body-shape';

describe('alertBodyShapeViolation', () => {
  it('accepts an object, an Alertmanager webhook body and an array of objects', () => {
    expect(alertBodyShapeViolation({ title: 'x' })).toBeNull();
    expect(alertBodyShapeViolation({})).toBeNull();
    expect(alertBodyShapeViolation({ version: '4', groupKey: 'g', alerts: [{ status: 'firing' }] })).toBeNull();
    expect(alertBodyShapeViolation([{ title: 'a' }, { title: 'b' }])).toBeNull();
    expect(alertBodyShapeViolation([])).toBeNull();
  });

  it('refuses scalars and null', () => {
    for (const body of ['text', 1, true, null]) {
      expect(alertBodyShapeViolation(body)).toBe('the body must be a JSON object or an array of JSON objects');
    }
  });

  it('names the first array element that is not an object', () => {
    expect(alertBodyShapeViolation([{ title: 'a' }, 'b', 3])).toMatch(/^element 1 of the array/);
    expect(alertBodyShapeViolation([[{ title: 'a' }]])).toMatch(/^element 0 of the array/);
    expect(alertBodyShapeViolation([{}, null])).toMatch(/^element 1 of the array/);
  });
});
