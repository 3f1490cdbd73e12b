import { PayloadPath, PlatformAlertField } from '@alert-ingestion/contracts';
import { JsonObject, JsonValue } from '@alert-ingestion/json';

/** The raw value found for each platform alert key (spec 2.2), before defaults and normalisation. */
export type AlertFieldValues = Partial<Record<PlatformAlertField, JsonValue>>;

/**
 * One alert payload taken from a receive request, with the values of its platform alert keys found.
 * `payload` is what the alert keeps (custom fields of any JSON type, spec 2.2).
 */
export interface AlertSource {
  payload: JsonObject;
  fields: AlertFieldValues;
  /**
   * Where `start_time`, `end_time` and `hosts` (or their mapped keys) sit in `payload`: spec 3 rule 2
   * and the contract compute the fingerprint from the whole payload without them.
   */
  fingerprintExclusions: PayloadPath[];
}
