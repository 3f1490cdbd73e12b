import { ValidationError } from 'class-validator';
import { firstInvalidField } from './validation';

function invalid(property: string, children: ValidationError[] = []): ValidationError {
  return Object.assign(new ValidationError(), { property, children, constraints: children.length === 0 ? { isString: `${property} must be a string` } : undefined });
}

describe('firstInvalidField', () => {
  it('names a top-level field as it is sent', () => {
    expect(firstInvalidField([invalid('ends_at'), invalid('comment')])).toBe('ends_at');
  });

  it('follows nested objects and array elements to the field in error', () => {
    expect(firstInvalidField([invalid('matchers', [invalid('0', [invalid('value')])])])).toBe('matchers[0].value');
  });

  it('names nothing when nothing failed', () => {
    expect(firstInvalidField([])).toBeUndefined();
  });
});
