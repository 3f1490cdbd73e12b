import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';

const SPELLINGS: Readonly<Record<string, boolean>> = { true: true, false: false };

/**
 * An environment variable that switches something on or off: `true` or `false`. Anything else
 * (`yes`, `0`, `False`) fails loadConfig with the variable's name instead of being read as on, which
 * is what a plain conversion would make of any non-empty text.
 */
export function BooleanSetting(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' && value in SPELLINGS ? SPELLINGS[value] : value), { toClassOnly: true }),
    IsBoolean({ message: ({ property }) => `${property} must be true or false` }),
  );
}
