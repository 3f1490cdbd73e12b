import {
  ACCEPTED_MAPPING_TYPES,
  PAYLOAD_FIELD_TYPES,
  PayloadFieldMappingEntry,
  PayloadFieldType,
  PayloadPath,
  PLATFORM_ALERT_FIELDS,
  PlatformAlertField,
} from '@alert-ingestion/contracts';
import { IntegrationRuleViolation } from './integration-rule-violation';
import { isJsonObject, JsonObject, JsonValue, valueAtPath } from '@alert-ingestion/json';
import { isDateTimeString, payloadPathLabel } from './sample-payload';

function invalid(message: string): IntegrationRuleViolation {
  return new IntegrationRuleViolation('invalid', 'invalid_payload_field_mapping', message);
}

function isPayloadPath(value: unknown): value is PayloadPath {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((segment) => typeof segment === 'string' || (typeof segment === 'number' && Number.isInteger(segment) && segment >= 0))
  );
}

/** Whether the sample's value at a mapped path can be read as `type`; a null leaf can be read as any. */
function valueFitsType(value: JsonValue, type: PayloadFieldType): boolean {
  if (value === null) return true;
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'datetime':
      return typeof value === 'string' && isDateTimeString(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
  }
}

/**
 * Validates a payload field mapping (spec 2.1, CONTRACT.md "Integrations") against the sample payload
 * it was made from: each entry names a platform alert key at most once, with a type that key accepts,
 * and a path that exists in the sample payload and points at a leaf or an array (what parse lists).
 * Returns the entries as typed values; throws an `invalid` violation (400) naming the first problem.
 */
export function validatePayloadFieldMapping(mapping: unknown, sample: JsonObject | null): PayloadFieldMappingEntry[] {
  if (!Array.isArray(mapping)) throw invalid('payload_field_mapping must be an array.');
  if (mapping.length === 0) return [];
  if (sample === null) {
    throw invalid('A payload field mapping needs a sample payload: set sample_payload and parse it first.');
  }
  const seen = new Set<PlatformAlertField>();
  return mapping.map((entry: unknown, index): PayloadFieldMappingEntry => {
    const where = `payload_field_mapping[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid(`${where} must be an object.`);
    const { field_name: fieldName, path, type, ...rest } = entry as Record<string, unknown>;
    const unknownKeys = Object.keys(rest);
    if (unknownKeys.length > 0) throw invalid(`${where} has unknown properties: ${unknownKeys.join(', ')}.`);
    if (typeof fieldName !== 'string' || !(PLATFORM_ALERT_FIELDS as readonly string[]).includes(fieldName)) {
      throw invalid(`${where}.field_name must be one of ${PLATFORM_ALERT_FIELDS.join(', ')}.`);
    }
    const field = fieldName as PlatformAlertField;
    if (typeof type !== 'string' || !(PAYLOAD_FIELD_TYPES as readonly string[]).includes(type)) {
      throw invalid(`${where}.type must be one of ${PAYLOAD_FIELD_TYPES.join(', ')}.`);
    }
    const fieldType = type as PayloadFieldType;
    if (!ACCEPTED_MAPPING_TYPES[field].includes(fieldType)) {
      throw invalid(`${where}: ${field} accepts ${ACCEPTED_MAPPING_TYPES[field].join(' or ')}, not ${fieldType}.`);
    }
    if (seen.has(field)) throw invalid(`${where}: ${field} is mapped more than once.`);
    seen.add(field);
    if (!isPayloadPath(path)) {
      throw invalid(`${where}.path must be a non-empty array of keys (strings) and array indices (integers >= 0).`);
    }
    const value = valueAtPath(sample, path);
    if (value === undefined) {
      throw invalid(`${where}.path ${payloadPathLabel(path)} does not exist in the sample payload.`);
    }
    if (isJsonObject(value)) {
      throw invalid(`${where}.path ${payloadPathLabel(path)} points at an object; map one of its values instead.`);
    }
    if (!valueFitsType(value, fieldType)) {
      throw invalid(`${where}: the sample payload's value at ${payloadPathLabel(path)} is not a ${fieldType}.`);
    }
    return { field_name: field, path: [...path], type: fieldType };
  });
}
