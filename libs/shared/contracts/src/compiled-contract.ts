import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationArguments } from 'class-validator';

type MessageClass<T> = new () => T;
type Check = (value: unknown) => boolean;

/**
 * A contract class's rules, compiled once into plain checks that call class-validator's own
 * constraint functions: the same rules as `validateSync`, without class-transformer's copy of the
 * value and the validator's per-message bookkeeping, which cost more than the rest of handling a
 * small message. A contract is still defined once, by its decorators.
 *
 * Returns null for a class that uses a kind of rule this compiler does not know: such a class is
 * always validated the slow way.
 */
export function compileContract<T extends object>(contract: MessageClass<T>): ((plain: unknown) => plain is T) | null {
  const check = compileClass(contract, new Map());
  return check ? (check as (plain: unknown) => plain is T) : null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function compileClass(target: MessageClass<unknown>, compiling: Map<unknown, Check | null>): Check | null {
  if (compiling.has(target)) return compiling.get(target) ?? null;
  // Filled in below; a class that nests itself finds its own check through this entry.
  let compiled: Check | null = null;
  compiling.set(target, (value) => compiled !== null && compiled(value));
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(target, '', true, false);
  const properties = new Map<string, typeof metadatas>();
  for (const metadata of metadatas) properties.set(metadata.propertyName, [...(properties.get(metadata.propertyName) ?? []), metadata]);

  const propertyChecks: Array<{ name: string; optional: boolean; checks: Array<(value: unknown, object: Record<string, unknown>) => boolean> }> = [];
  for (const [name, rules] of properties) {
    let optional = false;
    const checks: Array<(value: unknown, object: Record<string, unknown>) => boolean> = [];
    for (const rule of rules) {
      if (rule.type === 'conditionalValidation') {
        if (rule.name !== 'isOptional') return null;
        optional = true;
      } else if (rule.type === 'isDefined') {
        checks.push((value) => value !== undefined && value !== null);
      } else if (rule.type === 'customValidation') {
        const constraint = storage.getTargetValidatorConstraints(rule.constraintCls)[0];
        if (!constraint || constraint.async) return null;
        const validate = (value: unknown, object: Record<string, unknown>) =>
          constraint.instance.validate(value, { value, constraints: rule.constraints, targetName: target.name, object, property: name } as ValidationArguments) === true;
        checks.push(rule.each ? (value, object) => Array.isArray(value) && value.every((item) => validate(item, object)) : validate);
      } else if (rule.type === 'nestedValidation') {
        const nestedType = defaultMetadataStorage.findTypeMetadata(target, name)?.typeFunction();
        const nested = nestedType ? compileClass(nestedType as MessageClass<unknown>, compiling) : null;
        if (!nested) return null;
        checks.push(rule.each ? (value) => Array.isArray(value) && value.every((item) => isObject(item) && nested(item)) : (value) => isObject(value) && nested(value));
      } else {
        return null;
      }
    }
    propertyChecks.push({ name, optional, checks });
  }

  compiled = (value) => {
    if (!isObject(value)) return false;
    for (const { name, optional, checks } of propertyChecks) {
      const property = value[name];
      if (optional && (property === undefined || property === null)) continue;
      for (const check of checks) if (!check(property, value)) return false;
    }
    return true;
  };
  compiling.set(target, compiled);
  return compiled;
}
