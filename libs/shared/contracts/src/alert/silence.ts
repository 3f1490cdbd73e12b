import type { HttpSchemas } from '../http';
import { Integer, Timestamp } from '../json-types';

// Silences (maintenance windows) as Alertmanager users know them (docs/api-guide.md "Silences"): the API's
// shapes, shared by the processor, the alerts proxy and the console.

/** The alert fields a matcher can name (`{field, operator, value}`); custom payload fields go by `path`. */
export const SILENCE_MATCHER_FIELDS = [
  'title',
  'description',
  'severity',
  'service',
  'monitoring_tool',
  'hosts',
  'fingerprint',
  'platform_environment_name',
  'integration_id',
] as const;
export type SilenceMatcherField = (typeof SILENCE_MATCHER_FIELDS)[number];

/** Alertmanager's operators: equal, not equal, regex full match, regex no full match. */
export const SILENCE_MATCHER_OPERATORS = ['=', '!=', '=~', '!~'] as const;
export type SilenceMatcherOperator = (typeof SILENCE_MATCHER_OPERATORS)[number];

/** One condition of a silence on an alert field, or on a custom payload field by its path. */
export type SilenceMatcher = HttpSchemas['FieldSilenceMatcherDto'] | HttpSchemas['PathSilenceMatcherDto'];

/** Alertmanager's states: pending before `starts_at`, active until `ends_at`, expired from then on. */
export const SILENCE_STATES = ['pending', 'active', 'expired'] as const;
export type SilenceState = (typeof SILENCE_STATES)[number];

/** A silence as the API returns it. */
export type SilenceView = HttpSchemas['SilenceDto'];

// Written out, as AlertView is (alert-view.ts): alert events carry it.
/** What an alert carries while a silence covers it. */
export interface AlertSilence {
  id: Integer;
  comment: string;
  ends_at: Timestamp;
}
