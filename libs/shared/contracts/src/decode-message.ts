import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { compileContract } from './compiled-contract';

type MessageClass<T> = new () => T;

/** A Kafka message that does not satisfy its contract. `reason` names every failing field. */
export class ContractViolationError extends Error {
  constructor(
    readonly contract: string,
    readonly reason: string,
    /** The value as parsed, when it was JSON at all: what a consumer may still read of it (say where to reply). */
    readonly parsed?: unknown,
  ) {
    super(`${contract}: ${reason}`);
    this.name = 'ContractViolationError';
  }
}

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => `${path}: ${text}`);
    return [...own, ...describe(error.children ?? [], path)];
  });
}

const compiled = new WeakMap<MessageClass<object>, ((plain: unknown) => boolean) | null>();

/**
 * Validates a plain object against a contract class and returns the typed instance. A valid value
 * passes the contract's compiled checks (compileContract) and is taken as it is; only an invalid one
 * goes through class-validator's full run, which names every failing field.
 */
export function validateMessage<T extends object>(contract: MessageClass<T>, plain: unknown): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw new ContractViolationError(contract.name, 'value is not a JSON object', plain);
  }
  if (!compiled.has(contract)) compiled.set(contract, compileContract(contract));
  if (compiled.get(contract)?.(plain)) return Object.assign(new contract(), plain);
  const instance = plainToInstance(contract, plain);
  const errors = validateSync(instance, { forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new ContractViolationError(contract.name, describe(errors).join('; '), plain);
  }
  return instance;
}

/**
 * Parses a Kafka message value (JSON bytes) and validates it against its contract. The topic
 * registry's decode; services decode through TOPIC_REGISTRY, which knows each topic's contract.
 */
export function decodeMessage<T extends object>(contract: MessageClass<T>, value: Buffer | string | null): T {
  if (value === null) {
    throw new ContractViolationError(contract.name, 'value is empty');
  }
  let plain: unknown;
  try {
    plain = JSON.parse(value.toString());
  } catch {
    throw new ContractViolationError(contract.name, 'value is not valid JSON');
  }
  return validateMessage(contract, plain);
}

/**
 * Serialises a message value as JSON text. Kept beside decodeMessage so producers and consumers agree
 * on the format; the topic registry's encode for topics without a layout of their own.
 */
export function encodeMessage(value: object): string {
  return JSON.stringify(value);
}
