import { BadRequestException, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { fieldPath } from './input-policy';

/** The place of the first failed constraint, as a client names it: `matchers[0].value`. */
export function firstInvalidField(errors: readonly ValidationError[]): string | undefined {
  const path: (string | number)[] = [];
  let level: readonly ValidationError[] | undefined = errors;
  while (level && level.length > 0) {
    const error: ValidationError = level[0];
    path.push(/^\d+$/.test(error.property) ? Number(error.property) : error.property);
    if (error.constraints && Object.keys(error.constraints).length > 0) break;
    level = error.children;
  }
  return path.length > 0 ? fieldPath(path) : undefined;
}

/**
 * Strict DTO validation (unknown fields refused, values transformed) whose 400 names the first field
 * in error next to Nest's messages, so a form can show the error at that field.
 */
export class FieldNamingValidationPipe extends ValidationPipe {
  constructor() {
    super({ whitelist: true, forbidNonWhitelisted: true, transform: true });
    this.exceptionFactory = (errors) => new BadRequestException({ message: this.flattenValidationErrors(errors), field: firstInvalidField(errors) });
  }
}
