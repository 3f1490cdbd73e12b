import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min, ValidateBy } from 'class-validator';

export interface IntegerSettingBounds {
  min?: number;
  max?: number;
}

/**
 * An environment variable holding a whole number within bounds. Environment values are text, so the
 * value is converted first; a value that is not a whole number or is out of bounds fails loadConfig
 * with the variable's name.
 */
export function IntegerSetting(bounds: IntegerSettingBounds = {}): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => Number(value)),
    IsInt(),
    ...(bounds.min === undefined ? [] : [Min(bounds.min)]),
    ...(bounds.max === undefined ? [] : [Max(bounds.max)]),
  );
}

/** A number setting that may not be larger than another setting of the same environment (named in the message). */
export function NotAbove(otherSetting: string): PropertyDecorator {
  return ValidateBy({
    name: 'notAbove',
    constraints: [otherSetting],
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value <= Number((args?.object as Record<string, unknown>)[otherSetting]),
      defaultMessage: () => `must not be above ${otherSetting}`,
    },
  });
}
