import { compareIds } from './decimal-ids';
import {
  SILENCE_MATCHER_FIELDS,
  SILENCE_MATCHER_OPERATORS,
  SilenceMatcher,
  SilenceMatcherField,
  SilenceMatcherOperator,
  SilenceState,
} from '@alert-ingestion/contracts';
import { isJsonObject, JsonPathStep, JsonValue, valueAtPath } from '@alert-ingestion/json';
import { RE2JS } from 're2js';
import { NormalisedAlert } from './normalise-alert';

/**
 * Silences (maintenance windows) as Alertmanager users know them: a set of matchers on alert fields,
 * all of which must hold, and a time window. An alert that matches an active silence is stored and
 * grouped as usual and carries `silenced_by`, so that paging subscribers can skip it.
 */

export const SILENCE_LIMITS = {
  /** Matchers per silence. */
  matchers: 32,
  /** Characters of a matcher's value (a regex included): RE2 compiles in time linear in it. */
  valueLength: 1024,
  /** Steps of a payload path. */
  pathSteps: 32,
  /** Characters of a path step. */
  pathStepLength: 255,
} as const;

/** What a matcher reads of one alert payload: its alert fields, and the payload itself for a path. */
export interface SilenceableAlert {
  title: string;
  description: string | null;
  severity: string;
  service: string | null;
  monitoring_tool: string | null;
  hosts: readonly string[] | null;
  fingerprint: string | null;
  platform_environment_name: string | null;
  integration_id: string;
  payload: JsonValue;
}

/**
 * What the matchers read of one arriving payload: its fields normalised as spec 2.2 stores them and
 * the integration it came through. A silence is matched against each payload as it arrives, not
 * against the alert it is grouped into: the alert keeps its first payload's fields.
 */
export function silenceablePayload(payload: NormalisedAlert, integrationId: string): SilenceableAlert {
  return {
    title: payload.title,
    description: payload.description,
    severity: payload.severity,
    service: payload.service,
    monitoring_tool: payload.monitoringTool,
    hosts: payload.hosts,
    fingerprint: payload.fingerprint,
    platform_environment_name: payload.platformEnvironmentName,
    integration_id: integrationId,
    payload: payload.payload,
  };
}

/** A silence as the processor stores it (ids of bigint columns as decimal strings). */
export interface Silence {
  id: string;
  project_id: string;
  matchers: SilenceMatcher[];
  starts_at: Date;
  ends_at: Date;
  comment: string;
}

/** Alertmanager's states: pending before `starts_at`, active until `ends_at`, expired from then on. */
export function silenceState(silence: Pick<Silence, 'starts_at' | 'ends_at'>, now: Date): SilenceState {
  if (silence.ends_at.getTime() <= now.getTime()) return 'expired';
  if (silence.starts_at.getTime() > now.getTime()) return 'pending';
  return 'active';
}

/** What an alert carries while a silence covers it (ids as strings, as stored; `alertView` makes numbers). */
export interface SilenceReference {
  id: string;
  comment: string;
  ends_at: Date;
}

/**
 * The silence that covers `alert` (one payload of it, see silenceablePayload) at `now`: of the
 * silences of the alert's project that are active and whose matchers all hold, the one that ends last (the smallest id on a tie), so that a
 * subscriber learns how long the alert stays silenced; null when none does.
 */
export function silencingSilence(silences: readonly Silence[], alert: SilenceableAlert, now: Date): SilenceReference | null {
  let best: Silence | null = null;
  for (const silence of silences) {
    if (silenceState(silence, now) !== 'active' || !silence.matchers.every((matcher) => matcherHolds(matcher, alert))) continue;
    if (!best || silence.ends_at.getTime() > best.ends_at.getTime() || (silence.ends_at.getTime() === best.ends_at.getTime() && compareIds(silence.id, best.id) < 0)) {
      best = silence;
    }
  }
  return best && { id: best.id, comment: best.comment, ends_at: best.ends_at };
}

/**
 * Whether one matcher holds for an alert, as Alertmanager evaluates a label matcher: a missing value
 * (a null field, an absent path) is the empty string, so `service = ""` matches alerts without a
 * service and `service != ""` those with one. `hosts` holds a list: `=` and `=~` hold when any host
 * matches, `!=` and `!~` when none does (an alert without hosts has the one host `""`). A payload
 * value that is no string is compared as its JSON text (`3`, `true`, `["a"]`).
 */
export function matcherHolds(matcher: SilenceMatcher, alert: SilenceableAlert): boolean {
  const values = matcherValues(matcher, alert);
  const positive = matcher.operator === '=' || matcher.operator === '=~';
  const test = matcher.operator === '=' || matcher.operator === '!=' ? (text: string) => text === matcher.value : compiledRegex(matcher.value);
  const any = values.some(test);
  return positive ? any : !any;
}

function matcherValues(matcher: SilenceMatcher, alert: SilenceableAlert): string[] {
  if ('path' in matcher) return [payloadText(valueAtPath(alert.payload, matcher.path))];
  if (matcher.field === 'hosts') return alert.hosts && alert.hosts.length > 0 ? [...alert.hosts] : [''];
  return [alert[matcher.field] ?? ''];
}

function payloadText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Regexes run on RE2 (re2js, a pure JavaScript port): matching takes time linear in the text
 * whatever the pattern, so a silence cannot stall the receive path (no backtracking, no timeout
 * needed), and the syntax is Alertmanager's own (Go's RE2). Anchored like Alertmanager's: the
 * pattern must match the whole value (`^(?:pattern)$`). Compiled patterns are kept by text.
 */
const compiled = new Map<string, (text: string) => boolean>();
const COMPILED_KEPT = 1000;

function compiledRegex(pattern: string): (text: string) => boolean {
  let test = compiled.get(pattern);
  if (!test) {
    const regex = RE2JS.compile(`^(?:${pattern})$`);
    test = (text: string) => regex.matches(text);
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value as string);
    compiled.set(pattern, test);
  }
  return test;
}

/** Why a regex cannot be used, or null: RE2's syntax error (backreferences and lookarounds are not RE2). */
export function regexProblem(pattern: string): string | null {
  try {
    RE2JS.compile(`^(?:${pattern})$`);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * The matchers of a request body, checked: at least one and at most SILENCE_LIMITS.matchers; each
 * exactly `{field, operator, value}` or `{path, operator, value}` (a field of SILENCE_MATCHER_FIELDS,
 * a path of object keys and array indexes), a string value of bounded length, and for `=~` and `!~`
 * a regex RE2 compiles.
 */
export function parseSilenceMatchers(input: unknown): Parsed<SilenceMatcher[]> {
  if (!Array.isArray(input) || input.length === 0) return fail('matchers must be a non-empty array: a silence needs at least one matcher.');
  if (input.length > SILENCE_LIMITS.matchers) return fail(`A silence takes at most ${SILENCE_LIMITS.matchers} matchers.`);
  const matchers: SilenceMatcher[] = [];
  for (const [index, entry] of input.entries()) {
    const parsed = parseMatcher(entry);
    if (!parsed.ok) return fail(`matchers[${index}]: ${parsed.message}`);
    matchers.push(parsed.value);
  }
  return { ok: true, value: matchers };
}

function parseMatcher(entry: unknown): Parsed<SilenceMatcher> {
  if (!isJsonObject(entry as JsonValue)) return fail('a matcher is an object {field, operator, value} or {path, operator, value}.');
  const record = entry as Record<string, unknown>;
  const unknownKeys = Object.keys(record).filter((key) => !['field', 'path', 'operator', 'value'].includes(key));
  if (unknownKeys.length > 0) return fail(`unknown property ${unknownKeys.map((key) => `"${key}"`).join(', ')}.`);
  const { field, path, operator, value } = record;
  if (!SILENCE_MATCHER_OPERATORS.includes(operator as SilenceMatcherOperator)) {
    return fail(`operator must be one of ${SILENCE_MATCHER_OPERATORS.map((op) => `"${op}"`).join(', ')}.`);
  }
  if (typeof value !== 'string') return fail('value must be a string.');
  if (value.length > SILENCE_LIMITS.valueLength) return fail(`value must be at most ${SILENCE_LIMITS.valueLength} characters.`);
  const op = operator as SilenceMatcherOperator;
  if (op === '=~' || op === '!~') {
    const problem = regexProblem(value);
    if (problem !== null) return fail(`value is not a valid regular expression (RE2 syntax): ${problem}`);
  }
  if ((field === undefined) === (path === undefined)) return fail('a matcher names either a field or a path, not both.');
  if (field !== undefined) {
    if (!SILENCE_MATCHER_FIELDS.includes(field as SilenceMatcherField)) return fail(`field must be one of ${SILENCE_MATCHER_FIELDS.join(', ')}.`);
    return { ok: true, value: { field: field as SilenceMatcherField, operator: op, value } };
  }
  const steps = parsePath(path);
  if (!steps.ok) return steps;
  return { ok: true, value: { path: steps.value, operator: op, value } };
}

function parsePath(path: unknown): Parsed<JsonPathStep[]> {
  if (!Array.isArray(path) || path.length === 0 || path.length > SILENCE_LIMITS.pathSteps) {
    return fail(`path must be a non-empty array of at most ${SILENCE_LIMITS.pathSteps} object keys and array indexes.`);
  }
  for (const step of path) {
    const key = typeof step === 'string' && step.length > 0 && step.length <= SILENCE_LIMITS.pathStepLength;
    const index = typeof step === 'number' && Number.isInteger(step) && step >= 0;
    if (!key && !index) return fail(`path steps are object keys (1 to ${SILENCE_LIMITS.pathStepLength} characters) or array indexes (integers from 0).`);
  }
  return { ok: true, value: path as JsonPathStep[] };
}

/** The window of a silence, checked: `ends_at` after `starts_at`, both valid times. */
export function checkSilenceWindow(startsAt: Date, endsAt: Date): Parsed<{ starts_at: Date; ends_at: Date }> {
  if (Number.isNaN(startsAt.getTime()) || Number.isNaN(endsAt.getTime())) return fail('starts_at and ends_at must be ISO 8601 times.');
  if (endsAt.getTime() <= startsAt.getTime()) return fail('ends_at must be after starts_at.');
  return { ok: true, value: { starts_at: startsAt, ends_at: endsAt } };
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}
