import { decodeMessage, RawAlert } from '@alert-ingestion/contracts';
import { isISO8601, isUUID } from 'class-validator';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const nonEmptyText = (value: unknown): value is string => typeof value === 'string' && value.length >= 1;

/**
 * Decodes a raw alert message against the RawAlertValue contract. A message that visibly satisfies
 * every constraint of the contract (checked with class-validator's own functions) is accepted
 * directly: the generic decodeMessage runs class-transformer over the whole alert payload, which
 * costs more than all other processing of a message. Anything else goes through decodeMessage,
 * which accepts it or names every violation (ContractViolationError).
 */
export function decodeRawAlert(value: Buffer | null): RawAlert.RawAlertValue {
  if (value !== null) {
    let plain: unknown;
    try {
      plain = JSON.parse(value.toString());
    } catch {
      plain = undefined;
    }
    if (
      isObject(plain) &&
      typeof plain['request_id'] === 'string' &&
      isUUID(plain['request_id']) &&
      nonEmptyText(plain['integration_id']) &&
      nonEmptyText(plain['project_id']) &&
      typeof plain['received_at'] === 'string' &&
      isISO8601(plain['received_at']) &&
      (plain['reply_to'] === undefined || plain['reply_to'] === null || typeof plain['reply_to'] === 'string') &&
      plain['payload'] !== undefined &&
      plain['payload'] !== null
    ) {
      return Object.assign(new RawAlert.RawAlertValue(), plain);
    }
  }
  return decodeMessage(RawAlert.RawAlertValue, value);
}
