import { ACCEPTED_MAPPING_TYPES, PayloadAlertField, PayloadFieldMappingEntry, PayloadFieldType, PayloadPath, PLATFORM_ALERT_FIELDS, PlatformAlertField } from '@console/api/types';
import { isJsonObject, JsonValue } from './json-text';

export interface PlatformAlertKey {
  name: PlatformAlertField;
  label: string;
  /** The mapping types the key accepts (CONTRACT.md "Integrations"); the API checks them again. */
  accepts: readonly PayloadFieldType[];
}

const KEY_LABELS: Readonly<Record<PlatformAlertField, string>> = {
  title: 'Title',
  description: 'Description',
  start_time: 'Start time',
  end_time: 'End time',
  service: 'Service',
  monitoring_tool: 'Monitoring tool',
  hosts: 'Hosts',
  severity: 'Severity',
  fingerprint: 'Fingerprint',
  platform_environment_name: 'Environment',
};

/** Spec 2.2's alert properties in the order GitLab's mapping table lists them (the contract's order). */
export const PLATFORM_ALERT_KEYS: readonly PlatformAlertKey[] = PLATFORM_ALERT_FIELDS.map((name) => ({
  name,
  label: KEY_LABELS[name],
  accepts: ACCEPTED_MAPPING_TYPES[name],
}));

export const TYPE_LABELS: Readonly<Record<PayloadFieldType, string>> = {
  string: 'String',
  datetime: 'DateTime',
  number: 'Number',
  boolean: 'Boolean',
  array: 'Array',
};

/** A stable key for a path (select option values). */
export function pathKey(path: PayloadPath): string {
  return JSON.stringify(path);
}

export function valueAtPath(payload: JsonValue, path: PayloadPath): JsonValue | undefined {
  let current: JsonValue | undefined = payload;
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current) || segment >= current.length) return undefined;
      current = current[segment];
    } else {
      if (!isJsonObject(current) || !Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
      current = current[segment];
    }
  }
  return current;
}

/**
 * The mapping type a parsed payload field would have when mapped to `key`, or null when the two
 * do not fit: a string key takes a string (a datetime is one too), start and end time a datetime,
 * hosts and fingerprint a string or an array. A value that is null in the sample fits any key
 * (an end time is typically null while an alert fires) and takes the key's first type.
 */
export function mappingTypeFor(key: PlatformAlertKey, field: PayloadAlertField, nullInSample: boolean): PayloadFieldType | null {
  if (nullInSample) return key.accepts[0];
  if (key.accepts.includes(field.type)) return field.type;
  if (field.type === 'datetime' && key.accepts.includes('string')) return 'string';
  return null;
}

/** The mapping with `key` set to `field` (or unmapped when `field` is null), in the table's order. */
export function withMapping(
  mapping: readonly PayloadFieldMappingEntry[],
  key: PlatformAlertKey,
  field: PayloadAlertField | null,
  type: PayloadFieldType | null,
): PayloadFieldMappingEntry[] {
  const others = mapping.filter((entry) => entry.field_name !== key.name);
  const next = field && type ? [...others, { field_name: key.name, path: field.path, type }] : others;
  const order = PLATFORM_ALERT_KEYS.map((candidate) => candidate.name);
  return next.sort((a, b) => order.indexOf(a.field_name) - order.indexOf(b.field_name));
}

/** A short, readable preview of a sample value for the dropdown. */
export function previewValue(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
