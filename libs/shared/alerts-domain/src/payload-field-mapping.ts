import { PayloadFieldMappingEntry, PayloadPath, PLATFORM_ALERT_FIELDS, PlatformAlertField } from '@alert-ingestion/contracts';
import { JsonObject, valueAtPath } from '@alert-ingestion/json';
import { AlertFieldValues, AlertSource } from './alert-source';

/** The keys whose values do not take part in a computed fingerprint (spec 3 rule 2, CONTRACT.md). */
const FINGERPRINT_EXCLUDED_FIELDS: readonly PlatformAlertField[] = ['start_time', 'end_time', 'hosts'];

/**
 * Reads the platform alert keys of one payload (spec 2.2), applying the integration's payload field
 * mapping (spec 2.1, 3 rule 3): a mapped platform key is read from its mapped path *instead of* its
 * default name, the end time included (spec 3 rule 1); when that path is absent from a payload the
 * key counts as absent (its default applies) and the default-named property, if any, is just a
 * custom field. Unmapped keys keep their default names. With several entries for one key the first wins.
 * The mapping `type` describes the sample value; normalisation accepts every form it names.
 */
export function alertSourceFromPayload(
  payload: JsonObject,
  mapping: readonly PayloadFieldMappingEntry[] = [],
): AlertSource {
  const mappedPaths = new Map<PlatformAlertField, PayloadPath>();
  for (const entry of mapping) {
    if (!mappedPaths.has(entry.field_name)) mappedPaths.set(entry.field_name, entry.path);
  }
  const fields: AlertFieldValues = {};
  for (const field of PLATFORM_ALERT_FIELDS) {
    const value = valueAtPath(payload, mappedPaths.get(field) ?? [field]);
    if (value !== undefined) fields[field] = value;
  }
  const fingerprintExclusions = FINGERPRINT_EXCLUDED_FIELDS.map((field) => mappedPaths.get(field) ?? [field]);
  return { payload, fields, fingerprintExclusions };
}
